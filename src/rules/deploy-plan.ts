/**
 * Deciding what a deploy sends: a create body for a new deployment, or a PATCH body with only what
 * differs for an existing one, and the field-by-field difference that dry runs print. Pure.
 */

import { REDACTED } from '../api/redact.ts';
import {
  type CreateDeploymentRequest,
  type Deployment,
  displayName,
  type PatchDeploymentRequest,
  type Secret,
  type SourceConfig,
  type SourceKind,
  type SourceRevisionConfig,
} from '../api/schemas.ts';
import { InputError } from '../settings/input-error.ts';
import { sameRepository } from '../settings/url.ts';
import { canonicalJson } from './record-digest.ts';

/** One field a patch changes (or a dry run would). */
export interface FieldChange {
  /** Dotted path, e.g. `source_config.resource_spec.max_scale`. Secrets show names only. */
  path: string;
  from: unknown;
  to: unknown;
}

export interface DesiredDeployment {
  name?: string;
  source: SourceKind;
  sourceConfig: SourceConfig;
  revisionConfig: SourceRevisionConfig;
  secrets: Secret[];
}

export type DeployPlan =
  | {
      action: 'create';
      body: CreateDeploymentRequest;
      changes: FieldChange[];
      /** What the create sends that no input set, and why (the plan and a dry run say it). */
      defaults: string[];
    }
  | {
      action: 'patch';
      deploymentId: string;
      body: PatchDeploymentRequest;
      changes: FieldChange[];
      /** False when nothing in the body makes the server build a new revision. */
      producesRevision: boolean;
      /**
       * Secrets the deployment already has, sent again: the server never returns secret
       * values, so whether they changed is unknown, and they are not listed as changes.
       */
      resentSecrets: string[];
      /**
       * source_config fields the inputs set that the server does not echo (build_command, ...):
       * sent, since whether the deployment has them cannot be seen, and not listed as changes.
       */
      unverified: string[];
    };

/**
 * source_config fields a PATCH can never change (known-behaviour.md): compared with the
 * deployment's, never sent. `listener_config` stands for its `k8s_namespace`.
 */
const IMMUTABLE_SOURCE_CONFIG_FIELDS = [
  'integration_id',
  'repo_url',
  'deployment_type',
  'listener_id',
  'listener_config',
] as const satisfies readonly (keyof SourceConfig)[];

/** The input that sets each field that never changes, for messages. */
const IMMUTABLE_FIELD_INPUTS: Record<(typeof IMMUTABLE_SOURCE_CONFIG_FIELDS)[number], string> = {
  integration_id: 'integration-id',
  repo_url: 'repo-url',
  deployment_type: 'deployment-type',
  listener_id: 'listener-id',
  listener_config: 'k8s-namespace',
};

/** source_config fields the server may leave out of its answers (known-behaviour.md). */
const UNECHOED_SOURCE_CONFIG_FIELDS: ReadonlySet<string> = new Set([
  'install_command',
  'build_command',
  'listener_config',
]);

/**
 * Whether the server's `current` value of source_config field `key` is what `wanted` asks for:
 * true, false, or undefined when the answer does not show it (an unechoed field left out). A
 * resource_spec is the same when every field `wanted` sets has that value: the server fills its
 * defaults into the rest (cpu_limit = 2 × cpu, ...), and those are no difference.
 */
export function sameSourceConfigValue(
  key: string,
  current: unknown,
  wanted: unknown,
): boolean | undefined {
  if (current == null && UNECHOED_SOURCE_CONFIG_FIELDS.has(key)) return undefined;
  if (key === 'repo_url' && typeof current === 'string' && typeof wanted === 'string') {
    return sameRepository(current, wanted);
  }
  if (key === 'resource_spec' && isRecord(current) && isRecord(wanted)) {
    return Object.entries(wanted).every(([field, value]) => sameValue(current[field], value));
  }
  return sameValue(current, wanted);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type CreateOnlyKey = (typeof IMMUTABLE_SOURCE_CONFIG_FIELDS)[number];

/** A field that never changes, as the inputs set it and as the deployment has it. */
interface CreateOnlyField {
  key: CreateOnlyKey;
  /** The input that sets it. */
  input: string;
  /** Where it is in a deployment: `source_config.listener_config.k8s_namespace`, ... */
  path: string;
  wanted: unknown;
  /** The deployment's value; null or undefined when the answer does not show it. */
  current: unknown;
}

/** The fields that never change that the inputs set (listener_config: its k8s_namespace). */
function createOnlyFields(
  desired: SourceConfig,
  current: Record<string, unknown>,
): CreateOnlyField[] {
  return IMMUTABLE_SOURCE_CONFIG_FIELDS.flatMap((key): CreateOnlyField[] => {
    const wanted =
      key === 'listener_config' ? desired.listener_config?.k8s_namespace : desired[key];
    if (wanted === undefined) return [];
    const held = current[key];
    return [
      {
        key,
        input: IMMUTABLE_FIELD_INPUTS[key],
        path:
          key === 'listener_config'
            ? 'source_config.listener_config.k8s_namespace'
            : `source_config.${key}`,
        wanted,
        current:
          key === 'listener_config' ? (isRecord(held) ? held.k8s_namespace : undefined) : held,
      },
    ];
  });
}

/** Whether two values of a field that never changes are the same (one repository, spelled two ways). */
function sameCreateOnlyValue(key: CreateOnlyKey, a: unknown, b: unknown): boolean {
  if (key === 'repo_url' && typeof a === 'string' && typeof b === 'string') {
    return sameRepository(a, b);
  }
  return sameValue(a, b);
}

/**
 * The fields that never change, where the inputs ask for another value than the deployment has:
 * one InputError naming each, both values and the way out. Fields the answer does not show are
 * not compared (and never sent): createOnlyNotices tells of them.
 */
function immutableFieldError(
  desired: SourceConfig,
  current: Record<string, unknown>,
  name: string,
): InputError | undefined {
  const problems: { input: string; message: string }[] = [];
  for (const { key, input, path, wanted, current: has } of createOnlyFields(desired, current)) {
    if (has == null || sameCreateOnlyValue(key, has, wanted)) continue;
    const way =
      key === 'deployment_type'
        ? `Set '${input}: ${String(has)}' (or leave it empty) to deploy to it, or deploy under a new name to get a ${String(wanted)} deployment (delete this one first to reuse its name).`
        : `Set '${input}' to ${JSON.stringify(has)} (or leave it empty), or deploy under a new name (delete this one first to reuse its name).`;
    problems.push({
      input,
      message: `Input '${input}' is ${JSON.stringify(wanted)}, but deployment '${name}' has ${path} ${JSON.stringify(has)}, and it cannot change after the deployment was created. Nothing was changed. ${way}`,
    });
  }
  const [first] = problems;
  if (first === undefined) return undefined;
  if (problems.length === 1) return new InputError(first.input, first.message);
  return new InputError(first.input, problems.map((problem) => problem.message).join('\n'));
}

/** What a deploy tells of a field that never changes whose current value it cannot see. */
interface CreateOnlyNotice {
  /**
   * `notice`: the answer does not show the current value, so whether it differs is unknown.
   * `warning`: it differs from what this action itself sent last (`sentLast`).
   */
  level: 'notice' | 'warning';
  input: string;
  /** The field, e.g. `source_config.listener_config.k8s_namespace`. */
  path: string;
  message: string;
}

/**
 * The fields that never change that the inputs set on an existing deployment and its answer does
 * not show (production never echoes listener_config; deployment_type may be missing): this deploy
 * cannot tell whether they differ, and cannot change them, so each gets a notice saying so and how
 * to change it. Nothing when nothing can differ: the input unset, a create (`existing`
 * undefined), or a value the answer shows (shown and different is refused by planDeploy).
 *
 * `sentLast`: the source_config this action itself sent when it created the deployment, once a
 * record of it exists (issue #28 builds that record; until then no caller passes it). With it, a
 * value equal to what was sent is no notice, and another one is a warning.
 */
export function createOnlyNotices(
  desired: SourceConfig,
  existing: Pick<Deployment, 'name' | 'source_config'> | undefined,
  sentLast?: SourceConfig,
): CreateOnlyNotice[] {
  if (existing === undefined) return [];
  const current: Record<string, unknown> = existing.source_config ?? {};
  const sent = sentLast === undefined ? undefined : createOnlyFields(sentLast, {});
  return createOnlyFields(desired, current).flatMap((field): CreateOnlyNotice[] => {
    if (field.current != null) return [];
    const { input, path, wanted } = field;
    const fixed = `It is fixed when a deployment is created (a PATCH never changes it, so this deploy does not send it). To change it, recreate the deployment: delete it ('command: delete', with 'delete-tracing-project: true' to use the name again, which also deletes its traces), then deploy; or deploy under a new name.`;
    const before = sent?.find((other) => other.key === field.key)?.wanted;
    if (before !== undefined) {
      if (sameCreateOnlyValue(field.key, before, wanted)) return [];
      return [
        {
          level: 'warning',
          input,
          path,
          message: `Input '${input}' is ${JSON.stringify(wanted)}, but this action created deployment '${existing.name}' with ${path} ${JSON.stringify(before)}, and the control plane does not show its current value: the deployment most likely still has ${JSON.stringify(before)}. ${fixed}`,
        },
      ];
    }
    return [
      {
        level: 'notice',
        input,
        path,
        message: `Input '${input}' is ${JSON.stringify(wanted)}, but the control plane does not show the current ${path} of deployment '${existing.name}', so this run cannot tell whether it differs. ${fixed}`,
      },
    ];
  });
}

export function planDeploy(
  desired: DesiredDeployment,
  existing: Deployment | undefined,
): DeployPlan {
  return existing === undefined ? planCreate(desired) : planPatch(desired, existing);
}

function planCreate(desired: DesiredDeployment): DeployPlan {
  const { name } = desired;
  if (name === undefined) {
    // Addressed by id only, and that id does not exist: the caller reports it before planning.
    throw new InputError(
      'name',
      "Input 'name' is empty: a new deployment needs a name. Set 'name'.",
    );
  }
  if (desired.source === 'hosted_repo' && desired.revisionConfig.graph_config_path === undefined) {
    throw new InputError(
      'graph-config-path',
      `Input 'graph-config-path' is empty, but creating the hosted_repo deployment '${name}' needs it. Set it to the path of the graph configuration file in the repository (e.g. langgraph.json).`,
    );
  }
  const { sourceConfig, defaults } = createSourceConfig(desired);
  const body: CreateDeploymentRequest = {
    name,
    source: desired.source,
    source_config: sourceConfig,
    source_revision_config: desired.revisionConfig,
    secrets: desired.secrets,
  };
  const changes: FieldChange[] = [
    { path: 'name', from: undefined, to: name },
    { path: 'source', from: undefined, to: desired.source },
    ...diffFields('source_config', {}, sourceConfig),
    ...diffFields('source_revision_config', {}, desired.revisionConfig),
    ...secretChanges(desired.secrets, []),
  ];
  return { action: 'create', body, changes, defaults };
}

/** Why a create sends build_on_push false when `build-on-push` is empty. */
export const BUILD_ON_PUSH_DEFAULT =
  "source_config.build_on_push false: 'build-on-push' is empty, so the workflow decides what is built ('true' lets the control plane build every push by itself)";

/**
 * The source_config of a create, and what it sends that no input set: an external_container
 * create carries a resource_spec object, `{}` when the inputs give none (the server fills its
 * defaults; a server may refuse the create without it, and the official client sends `{}`:
 * known-behaviour.md); a hosted_repo create sends build_on_push false when the input is empty
 * (the server's own default may build every push beside the workflow).
 */
function createSourceConfig(desired: DesiredDeployment): {
  sourceConfig: SourceConfig;
  defaults: string[];
} {
  const { source, sourceConfig } = desired;
  if (source === 'hosted_repo' && sourceConfig.build_on_push === undefined) {
    return {
      sourceConfig: { ...sourceConfig, build_on_push: false },
      defaults: [BUILD_ON_PUSH_DEFAULT],
    };
  }
  if (source !== 'external_container' || sourceConfig.resource_spec !== undefined)
    return { sourceConfig, defaults: [] };
  return { sourceConfig: { ...sourceConfig, resource_spec: {} }, defaults: [] };
}

function planPatch(desired: DesiredDeployment, existing: Deployment): DeployPlan {
  if (existing.source != null && existing.source !== desired.source) {
    throw new InputError(
      'source',
      `Input 'source' is '${desired.source}', but deployment '${existing.name}' was created with source '${existing.source}', and the source kind cannot change after creation. Set 'source: ${existing.source}', or deploy under a new name.`,
    );
  }
  const currentConfig: Record<string, unknown> = existing.source_config ?? {};
  const currentRevision: Record<string, unknown> = existing.source_revision_config ?? {};
  const immutable = immutableFieldError(desired.sourceConfig, currentConfig, displayName(existing));
  if (immutable) throw immutable;

  const body: PatchDeploymentRequest = {};
  const sourceConfig: SourceConfig = {};
  const unverified: string[] = [];
  for (const [key, value] of Object.entries(desired.sourceConfig) as [
    keyof SourceConfig,
    SourceConfig[keyof SourceConfig],
  ][]) {
    // Never sent: the server refuses a change, and a mismatch was refused above.
    if ((IMMUTABLE_SOURCE_CONFIG_FIELDS as readonly string[]).includes(key)) continue;
    // resource_spec is replaced whole by the server, so it is sent whole.
    const same = sameSourceConfigValue(key, currentConfig[key], value);
    if (same === true) continue;
    if (same === undefined) unverified.push(`source_config.${key}`);
    Object.assign(sourceConfig, { [key]: value });
  }
  if (Object.keys(sourceConfig).length > 0) body.source_config = sourceConfig;

  // A deploy always produces a revision: source_revision_config is sent even when unchanged,
  // because the same ref can point at new commits. With no ref given, the current one is rebuilt.
  const revisionConfig = withFallbackRef(desired, currentRevision);
  if (Object.keys(revisionConfig).length > 0) body.source_revision_config = revisionConfig;
  // An empty list would mean "unchanged" to the server anyway.
  if (desired.secrets.length > 0) body.secrets = desired.secrets;

  const existingSecretNames = (existing.secrets ?? []).map((secret) => secret.name);
  const compared = Object.fromEntries(
    Object.entries(sourceConfig).filter(([key]) => !unverified.includes(`source_config.${key}`)),
  );
  const changes: FieldChange[] = [
    ...diffFields('source_config', currentConfig, compared),
    ...diffFields('source_revision_config', currentRevision, revisionConfig),
    ...secretChanges(desired.secrets, existingSecretNames),
  ];
  return {
    action: 'patch',
    unverified,
    deploymentId: existing.id,
    body,
    changes,
    producesRevision: body.source_revision_config !== undefined || body.secrets !== undefined,
    resentSecrets: desired.secrets
      .filter((secret) => existingSecretNames.includes(secret.name))
      .map((secret) => secret.name),
  };
}

function withFallbackRef(
  desired: DesiredDeployment,
  current: Record<string, unknown>,
): SourceRevisionConfig {
  if (Object.keys(desired.revisionConfig).length > 0) return desired.revisionConfig;
  const key = desired.source === 'hosted_repo' ? 'repo_ref' : 'image_uri';
  const value = current[key];
  return typeof value === 'string' && value !== '' ? { [key]: value } : {};
}

/** Field-level differences between two objects, one level deep (nested values compared whole). */
function diffFields(
  prefix: string,
  from: Record<string, unknown>,
  to: Record<string, unknown>,
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [key, value] of Object.entries(to)) {
    if (!sameValue(from[key], value)) {
      changes.push({ path: `${prefix}.${key}`, from: from[key] ?? undefined, to: value });
    }
  }
  return changes;
}

/**
 * New secrets, by name; their values never appear (REDACTED stands in, whatever the value's
 * length). A secret the deployment already has is not a change: the server's value is unknown.
 */
function secretChanges(secrets: Secret[], existingNames: string[]): FieldChange[] {
  return secrets
    .filter((secret) => !existingNames.includes(secret.name))
    .map((secret) => ({ path: `secrets.${secret.name}`, from: undefined, to: REDACTED }));
}

/** Deep equality of JSON values, ignoring object key order. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/** The plan as the `plan` output and the dry-run log show it: secret values hidden. */
export function planToJson(plan: DeployPlan, name: string | undefined): Record<string, unknown> {
  const request = JSON.parse(JSON.stringify(plan.body)) as { secrets?: { value: string }[] };
  for (const secret of request.secrets ?? []) secret.value = REDACTED;
  return {
    action: plan.action,
    ...(plan.action === 'patch' ? { deployment_id: plan.deploymentId } : {}),
    ...(plan.action === 'patch' && plan.resentSecrets.length > 0
      ? { secrets_sent_again: plan.resentSecrets }
      : {}),
    ...(plan.action === 'patch' && plan.unverified.length > 0
      ? { sent_unverified: plan.unverified }
      : {}),
    ...(plan.action === 'create' && plan.defaults.length > 0 ? { defaults: plan.defaults } : {}),
    name,
    request,
    changes: plan.changes.map((change) => ({
      path: change.path,
      from: change.from ?? null,
      to: change.to ?? null,
    })),
  };
}
