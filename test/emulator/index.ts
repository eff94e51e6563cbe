/**
 * A control-plane emulator: a real HTTP server on 127.0.0.1 that behaves like the service
 * described by shared/spec/control-plane-api.md and known-behaviour.md, so the action's tests
 * run against HTTP instead of mocks.
 *
 *   const emulator = await startEmulator({ clock: 'manual', stepMs: 1000 });
 *   // ... point a client at emulator.url with X-Api-Key: emulator.apiKey ...
 *   emulator.advance(7000); // the first revision is now DEPLOYED
 *   await emulator.close();
 *
 * Where the documents are silent, the choice made (and why) is commented where it is made.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { adminHandler } from './admin.ts';
import type {
  CreateDeploymentRequest,
  Deployment,
  Listener,
  Revision,
  Secret,
} from './api-shapes.ts';
import { AuthenticateState } from './authenticate.ts';
import { type EmulatorClock, manualClock, realClock } from './clock.ts';
import type { EmulatorContext } from './context.ts';
import { ADMIN_PREFIX, type Dispatcher, dispatch } from './dispatch.ts';
import { FaultDelays, FaultQueue } from './faults.ts';
import { detail, sendReply } from './http.ts';
import { ListenerRegistry } from './listeners.ts';
import { resolveOptions } from './options.ts';
import { TokenBucket } from './rate-limit.ts';
import { RunStreamScripts } from './run-stream.ts';
import { DeploymentStore } from './store.ts';
import type {
  AuthenticateResult,
  EmulatorOptions,
  Fault,
  ListenerInput,
  RecordedRequest,
  RevisionScript,
  RunStreamScript,
  ServiceMadeRevision,
} from './types.ts';
import { deploymentView, revisionView } from './views.ts';

export { DEFAULT_API_KEY, EMULATOR_OPTIONS, type ResolvedOptions } from './options.ts';
export { PERMISSIVE, PRODUCTION } from './preset.ts';
export { repositoryKey } from './store.ts';
export type {
  AuthenticateResult,
  ConcurrentPatch,
  EmulatorOptions,
  Fault,
  FaultKind,
  ListenerInput,
  RateLimit,
  RecordedRequest,
  RevisionOutcome,
  RevisionScript,
  RunStreamEvent,
  RunStreamScript,
  ServiceMadeRevision,
} from './types.ts';

export interface Emulator {
  /** 'http://127.0.0.1:PORT'; clients append /v2/... */
  readonly url: string;
  readonly apiKey: string;
  /** Every non-admin request, in order of arrival (a live array, emptied by reset()). */
  readonly requests: RecordedRequest[];
  inject(fault: Fault): void;
  /**
   * Scripts the next revision created for that name (by create, PATCH, POST .../revisions or
   * redeploy); queues.
   */
  scriptRevision(deploymentName: string, script: RevisionScript): void;
  /** Scripts every later run stream of that deployment, until replaced or reset. */
  scriptRunStream(deploymentName: string, script: RunStreamScript): void;
  addListener(listener: ListenerInput): Listener;
  /**
   * A push: `ref` (as the API names it: `main`, `refs/tags/v1`) of the repository `repoUrl` now
   * points at `sha`, and later builds of it carry that repo_commit_sha (when a build takes it:
   * EmulatorOptions.buildsRefAtBuildTime). Without `repoUrl`, the ref moves in every repository
   * (as before repositories were told apart); with it, only in the deployments whose
   * source_config.repo_url has the same repositoryKey (host/owner/name, case-insensitive,
   * without `.git` or a trailing slash). Until a push, a build of a ref carries fakeCommitSha of
   * it. With EmulatorOptions.buildsOnPush, starts a revision on each deployment of that
   * repository and branch with build_on_push, and answers them (also in serviceMadeRevisions());
   * with pushesQueueBehindBuild, one made while a build runs waits behind it (QUEUED).
   * Forgotten by reset().
   */
  pushCommit(ref: string, sha: string, repoUrl?: string): ServiceMadeRevision[];
  /**
   * Starts a new revision of the deployment as the service does by itself (the UI's "New
   * Revision"; no API request): of its latest revision's source, going as `script` says (else
   * as the next queued script), e.g. {outcome: 'stay'} for a build a re-run finds under way. It
   * is never refused (revisionInProgressConflict) and supersedes one still pending. Throws for
   * an unknown id.
   */
  startRevision(deploymentId: string, script?: RevisionScript): Revision;
  /** The revisions the service made by itself (push builds, startRevision), oldest first. */
  serviceMadeRevisions(): ServiceMadeRevision[];
  setAuthenticateResult(result: AuthenticateResult): void;
  /** Caps every listing page at `pageCap` items (undefined: no cap); see EmulatorOptions. */
  setPageCap(pageCap: number | undefined): void;
  /**
   * Creates a deployment without the unique-name rule that POST /v2/deployments enforces (a
   * server without it, or two creates that raced): how a test gets two deployments of one name.
   * `nameless`: its name is null in answers, as a deployment an agent builder made.
   */
  seedDeployment(request: CreateDeploymentRequest, options?: { nameless?: boolean }): Deployment;
  /** Moves a manual clock; throws for a real one. */
  advance(ms: number): void;
  /**
   * Makes a deployment look `ms` older: its created_at and updated_at move back (age rules, such
   * as prune's max-age, are then tested without waiting). Throws for an unknown id.
   */
  backdate(deploymentId: string, ms: number): void;
  /** The deployments as GET would answer them now (deep copies), oldest first. */
  deployments(): Deployment[];
  /** The revisions of a deployment as GET would answer them now, oldest first. */
  revisions(deploymentId: string): Revision[];
  /** The stored secrets of a deployment, values included. */
  secrets(deploymentId: string): Secret[];
  /**
   * Sets a secret on a deployment as the UI does (never passed by a workflow): answers carry it
   * from then on. Throws for an unknown id.
   */
  setSecretInUi(deploymentId: string, secret: Secret): void;
  /** The tracing projects that exist now (one is created with each deployment), by name. */
  tracingProjects(): string[];
  /** Forgets deployments, listeners, scripts, faults and recorded requests; time goes on. */
  reset(): void;
  /** Stops the server, every open connection and every timer. */
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

class RunningEmulator implements Emulator {
  readonly url: string;
  readonly apiKey: string;
  readonly requests: RecordedRequest[] = [];
  private readonly server: Server;
  private readonly clock: EmulatorClock;
  private readonly context: EmulatorContext;
  private readonly faults = new FaultQueue();
  private readonly delays = new FaultDelays();
  private readonly dispatcher: Dispatcher;
  private closing: Promise<void> | undefined;
  private readonly options: EmulatorOptions;

  constructor(server: Server, url: string, options: EmulatorOptions) {
    const settings = resolveOptions(options);
    // A copy: its `times` counts down, and reset() starts it again.
    settings.concurrentPatch = options.concurrentPatch && { ...options.concurrentPatch };
    this.options = options;
    this.server = server;
    this.url = url;
    this.apiKey = settings.apiKey;
    this.clock = settings.clock === 'manual' ? manualClock() : realClock();
    this.context = {
      settings,
      clock: this.clock,
      store: new DeploymentStore({
        ...settings,
        clock: this.clock,
        appUrlFor: (name) => `${url}/apps/${encodeURIComponent(name)}`,
      }),
      listeners: new ListenerRegistry(this.clock),
      authenticate: new AuthenticateState(url),
      runStreams: new RunStreamScripts(),
    };
    this.dispatcher = {
      context: this.context,
      faults: this.faults,
      delays: this.delays,
      requests: this.requests,
      admin: adminHandler(this, ADMIN_PREFIX),
      apiPrefix: settings.pathPrefix?.replace(/\/+$/, '') ?? '',
      rateLimiter: settings.rateLimit && new TokenBucket(settings.rateLimit, this.clock),
    };
  }

  /** The server's request listener. */
  handle(incoming: IncomingMessage, response: ServerResponse): void {
    dispatch(this.dispatcher, incoming, response).catch((error: unknown) => {
      if (response.headersSent || response.destroyed) return;
      const message = error instanceof Error ? error.message : String(error);
      sendReply(response, detail(500, `Internal emulator error: ${message}`));
    });
  }

  inject(fault: Fault): void {
    this.faults.inject(fault);
  }

  scriptRevision(deploymentName: string, script: RevisionScript): void {
    this.context.store.scriptNextRevision(deploymentName, { ...script });
  }

  scriptRunStream(deploymentName: string, script: RunStreamScript): void {
    this.context.runStreams.set(deploymentName, script);
  }

  addListener(listener: ListenerInput): Listener {
    return this.context.listeners.add(listener);
  }

  pushCommit(ref: string, sha: string, repoUrl?: string): ServiceMadeRevision[] {
    return this.context.store.pushCommit(ref, sha, repoUrl);
  }

  startRevision(deploymentId: string, script?: RevisionScript): Revision {
    const { store } = this.context;
    const deployment = store.find(deploymentId);
    if (deployment === undefined) throw new Error(`startRevision(): no deployment ${deploymentId}`);
    return revisionView(store, store.startRevision(deployment, script && { ...script }));
  }

  serviceMadeRevisions(): ServiceMadeRevision[] {
    return this.context.store.serviceMadeRevisions();
  }

  setAuthenticateResult(result: AuthenticateResult): void {
    this.context.authenticate.set(result);
  }

  setPageCap(pageCap: number | undefined): void {
    if (pageCap !== undefined && !(Number.isInteger(pageCap) && pageCap >= 1)) {
      throw new Error(`a page cap must be a positive integer, got ${pageCap}`);
    }
    this.context.settings.pageCap = pageCap;
  }

  seedDeployment(
    request: CreateDeploymentRequest,
    options: { nameless?: boolean } = {},
  ): Deployment {
    const { store, settings } = this.context;
    return deploymentView(store, store.create(request, options.nameless), settings.tenantId);
  }

  advance(ms: number): void {
    this.clock.advance(ms);
  }

  backdate(deploymentId: string, ms: number): void {
    const deployment = this.context.store.find(deploymentId);
    if (deployment === undefined) throw new Error(`backdate(): no deployment ${deploymentId}`);
    deployment.createdAt -= ms;
    deployment.updatedAt -= ms;
  }

  deployments(): Deployment[] {
    const { store, settings } = this.context;
    return store.all().map((deployment) => deploymentView(store, deployment, settings.tenantId));
  }

  revisions(deploymentId: string): Revision[] {
    const { store } = this.context;
    const deployment = store.find(deploymentId);
    return deployment?.revisions.map((revision) => revisionView(store, revision)) ?? [];
  }

  setSecretInUi(deploymentId: string, secret: Secret): void {
    this.context.store.setSecretInUi(deploymentId, secret);
  }

  secrets(deploymentId: string): Secret[] {
    const deployment = this.context.store.find(deploymentId);
    return deployment?.secrets.map((secret) => ({ ...secret })) ?? [];
  }

  tracingProjects(): string[] {
    return this.context.store.tracingProjects();
  }

  reset(): void {
    this.context.store.reset();
    this.context.listeners.reset();
    this.context.authenticate.reset();
    this.context.runStreams.reset();
    this.faults.clear();
    this.requests.length = 0;
    // A concurrentPatch's `times` starts again for the next test.
    const { concurrentPatch } = this.options;
    this.context.settings.concurrentPatch = concurrentPatch && { ...concurrentPatch };
  }

  close(): Promise<void> {
    this.closing ??= new Promise((resolve, reject) => {
      this.delays.cancelAll();
      this.server.close((error) => (error === undefined ? resolve() : reject(error)));
      // Also ends hanging run streams, whose heartbeat timers stop when their connection closes.
      this.server.closeAllConnections();
    });
    return this.closing;
  }
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  // Requests can only arrive once listen() has resolved, and by then `emulator` is set.
  let emulator: RunningEmulator | undefined;
  const handler = (incoming: IncomingMessage, response: ServerResponse): void =>
    emulator?.handle(incoming, response);
  const { tls, publicUrl, port: askedPort } = resolveOptions(options);
  const server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  const port = await listen(server, askedPort);
  const url = publicUrl?.(port) ?? `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  emulator = new RunningEmulator(server, url, options);
  return emulator;
}
