/**
 * The admin HTTP API under /_emulator/, for driving a running emulator from outside a test
 * process (a workflow, a shell). It needs no API key and is not recorded in `requests`.
 *
 *   POST /_emulator/faults               a Fault; `path` is a string, or `pathPattern` a RegExp source
 *   POST /_emulator/revision-script      {name, ...RevisionScript}
 *   POST /_emulator/run-stream-script    {name, ...RunStreamScript}
 *   POST /_emulator/listeners            {id?, compute_id?, k8s_namespaces?} → 201 the Listener
 *   POST /_emulator/authenticate-result  {token?, url?, auth_id?}
 *   POST /_emulator/page-cap             {pageCap: n | null}: listing pages hold at most n items
 *   POST /_emulator/deployments          a create body → 201 the Deployment, even when the name
 *                                        is taken (the public create answers 409): duplicates
 *   POST /_emulator/push                 {ref, sha, repoUrl?} (pushCommit) → 200 the revisions
 *                                        the push started (buildsOnPush)
 *   POST /_emulator/start-revision       {deploymentId, ...RevisionScript?} (startRevision) →
 *                                        201 the Revision
 *   GET  /_emulator/requests             → 200 the recorded requests
 *   POST /_emulator/reset
 *
 * Commands answer 204; a malformed command answers 400 {detail}.
 */
import { z } from 'zod';
import { type CreateDeploymentRequest, CreateDeploymentRequestSchema } from './api-shapes.ts';
import type { AdminHandler } from './dispatch.ts';
import { detail, empty, json, type Reply, type RequestBody } from './http.ts';
import type {
  AuthenticateResult,
  Fault,
  ListenerInput,
  RecordedRequest,
  RevisionScript,
  RunStreamScript,
} from './types.ts';
import { checkBody } from './validation.ts';

/** What the admin API can do to an emulator: a subset of the Emulator interface. */
export interface AdminControls {
  inject(fault: Fault): void;
  scriptRevision(deploymentName: string, script: RevisionScript): void;
  scriptRunStream(deploymentName: string, script: RunStreamScript): void;
  addListener(listener: ListenerInput): unknown;
  setAuthenticateResult(result: AuthenticateResult): void;
  setPageCap(pageCap: number | undefined): void;
  seedDeployment(request: CreateDeploymentRequest): unknown;
  pushCommit(ref: string, sha: string, repoUrl?: string): unknown;
  startRevision(deploymentId: string, script?: RevisionScript): unknown;
  readonly requests: RecordedRequest[];
  reset(): void;
}

const FaultCommand = z.strictObject({
  method: z.string().optional(),
  path: z.string().optional(),
  pathPattern: z.string().optional(),
  times: z.number().int().positive().optional(),
  kind: z.enum([
    'status',
    'reset',
    'slow',
    'commit-then-drop',
    'commit-then-status',
    'commit-then-slow',
    'huge-body',
    'endless-body',
  ]),
  status: z.number().int().min(100).max(599).optional(),
  detail: z.string().optional(),
  body: z.string().optional(),
  contentType: z.string().optional(),
  retryAfter: z.string().optional(),
  delayMs: z.number().nonnegative().optional(),
  bytes: z.number().int().nonnegative().optional(),
});

const RevisionScriptFields = {
  outcome: z.enum([
    'deploy',
    'create-fail',
    'build-fail',
    'deploy-fail',
    'deploy-fail-once',
    'interrupt',
    'interrupt-resume',
    'stay',
    'unknown-status',
  ]),
  statusMessage: z.string().optional(),
  buildLog: z.array(z.string()).optional(),
  deployLog: z.array(z.string()).optional(),
  interruptedSteps: z.number().int().positive().optional(),
  stayAt: z.string().optional(),
  customStatus: z.string().optional(),
  stepMs: z.number().nonnegative().optional(),
  phaseMs: z.array(z.number().nonnegative()).optional(),
  stepEachRead: z.boolean().optional(),
};

const RevisionScriptCommand = z.strictObject({ name: z.string(), ...RevisionScriptFields });

const PushCommand = z.strictObject({
  ref: z.string().min(1),
  sha: z.string().min(1),
  repoUrl: z.string().optional(),
});

/** A script is optional: without `outcome`, the next queued script (or none) applies. */
const StartRevisionCommand = z.strictObject({
  deploymentId: z.string(),
  ...RevisionScriptFields,
  outcome: RevisionScriptFields.outcome.optional(),
});

const RunStreamScriptCommand = z.strictObject({
  name: z.string(),
  events: z.array(z.strictObject({ event: z.string(), data: z.unknown() })).optional(),
  error: z.strictObject({ error: z.string(), message: z.string() }).optional(),
  omitEnd: z.boolean().optional(),
  hang: z.boolean().optional(),
  heartbeatEvery: z.number().int().positive().optional(),
});

const ListenerCommand = z.strictObject({
  id: z.string().optional(),
  compute_id: z.string().optional(),
  k8s_namespaces: z.array(z.string()).nullable().optional(),
});

const PageCapCommand = z.strictObject({
  pageCap: z.number().int().positive().nullable(),
});

const AuthenticateResultCommand = z.strictObject({
  status: z.string().optional(),
  token: z.string().optional(),
  url: z.string().optional(),
  auth_id: z.string().optional(),
});

type Command = (controls: AdminControls, body: unknown) => Reply;

/** Parses a command body, or answers why it cannot be run. */
function parsed<T>(schema: z.ZodType<T>, body: unknown, run: (value: T) => Reply): Reply {
  const result = schema.safeParse(body);
  if (!result.success) return detail(400, z.prettifyError(result.error));
  return run(result.data);
}

const COMMANDS: Record<string, Command> = {
  'POST faults': (controls, body) =>
    parsed(FaultCommand, body, ({ pathPattern, ...fault }) => {
      controls.inject(
        pathPattern === undefined ? fault : { ...fault, path: new RegExp(pathPattern) },
      );
      return empty(204);
    }),
  'POST revision-script': (controls, body) =>
    parsed(RevisionScriptCommand, body, ({ name, ...script }) => {
      controls.scriptRevision(name, script);
      return empty(204);
    }),
  'POST run-stream-script': (controls, body) =>
    parsed(RunStreamScriptCommand, body, ({ name, ...script }) => {
      controls.scriptRunStream(name, script);
      return empty(204);
    }),
  'POST listeners': (controls, body) =>
    parsed(ListenerCommand, body, (listener) => json(201, controls.addListener(listener))),
  'POST authenticate-result': (controls, body) =>
    parsed(AuthenticateResultCommand, body, (result) => {
      controls.setAuthenticateResult(result);
      return empty(204);
    }),
  'POST page-cap': (controls, body) =>
    parsed(PageCapCommand, body, ({ pageCap }) => {
      controls.setPageCap(pageCap ?? undefined);
      return empty(204);
    }),
  'POST deployments': (controls, body) => {
    // The public create's own body check (api-shapes.ts), without its unique-name rule.
    const checked = checkBody(CreateDeploymentRequestSchema, { kind: 'json', value: body });
    if (!checked.ok) {
      const problems = checked.issues.map((each) => `${each.loc.join('.')}: ${each.msg}`);
      return detail(400, problems.join('; '));
    }
    return json(201, controls.seedDeployment(checked.value));
  },
  'POST push': (controls, body) =>
    parsed(PushCommand, body, ({ ref, sha, repoUrl }) =>
      json(200, controls.pushCommit(ref, sha, repoUrl)),
    ),
  'POST start-revision': (controls, body) =>
    parsed(StartRevisionCommand, body, ({ deploymentId, outcome, ...rest }) => {
      try {
        const script = outcome === undefined ? undefined : { outcome, ...rest };
        return json(201, controls.startRevision(deploymentId, script));
      } catch (error) {
        return detail(404, error instanceof Error ? error.message : String(error));
      }
    }),
  'GET requests': (controls) => json(200, controls.requests),
  'POST reset': (controls) => {
    controls.reset();
    return empty(204);
  },
};

export function adminHandler(controls: AdminControls, prefix: string): AdminHandler {
  return (method: string, path: string, body: RequestBody) => {
    const command = COMMANDS[`${method} ${path.slice(prefix.length)}`];
    if (command === undefined) return detail(404, `No admin command ${method} ${path}`);
    if (body.kind === 'invalid') return detail(400, 'The admin command body is not JSON');
    return command(controls, body.kind === 'json' ? body.value : {});
  };
}
