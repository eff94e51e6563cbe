/**
 * What is deployed: the source kind, its source_config and source_revision_config fields as given
 * (and what each kind takes), the repo-ref a run defaults to, and the secrets.
 */

import type { Environment } from '../api/proxy.ts';
import { DEFAULT_MIN_MASK_LENGTH } from '../api/redact.ts';
import type { Secret, SourceConfig, SourceKind, SourceRevisionConfig } from '../api/schemas.ts';
import { DEPLOYMENT_TYPES, SOURCE_KINDS } from '../api/schemas.ts';
import { type CommandName, INPUT_DEFAULTS } from './definitions.ts';
import { type InputReading, nonEmpty } from './input-reading.ts';
import { RESERVED_ENV_NAMES } from './reserved-env-names.ts';
import { parseResourceSpec } from './resource-spec.ts';
import { parseSecrets } from './secrets.ts';
import { parseHttpUrl } from './url.ts';

/** What is deployed, as the inputs say. */
export interface SourceSettings {
  source: SourceKind;
  /** Only the source_config fields the user gave: absent ones are left as the server has them. */
  sourceConfig: SourceConfig;
  /** Only the source_revision_config fields the user gave (repo-ref defaults to the workflow's). */
  revisionConfig: SourceRevisionConfig;
  secrets: Secret[];
  /** Secret values shorter than this are sent but not masked (the `min-mask-length` input). */
  minMaskLength: number;
}

/** The service takes a tag only as its full ref (known-behaviour.md). */
const TAG_REF_PREFIX = 'refs/tags/';

function isTagRef(ref: string | undefined): boolean {
  return ref?.startsWith(TAG_REF_PREFIX) === true;
}

/**
 * The branch or tag the workflow runs for; on pull requests, the PR's head branch. A branch by
 * its name (`main`), a tag by its full ref (`refs/tags/v1.2.0`): the service takes a tag only so.
 */
export function defaultRepoRef(env: Environment): string | undefined {
  const headRef = nonEmpty(env.GITHUB_HEAD_REF);
  if (headRef !== undefined) return headRef;
  const tag = runTag(env);
  return tag === undefined ? nonEmpty(env.GITHUB_REF_NAME) : `${TAG_REF_PREFIX}${tag}`;
}

/** The tag a workflow runs for (a push of a tag, a release), else undefined. */
function runTag(env: Environment): string | undefined {
  const ref = nonEmpty(env.GITHUB_REF);
  if (ref !== undefined) {
    return isTagRef(ref) ? nonEmpty(ref.slice(TAG_REF_PREFIX.length)) : undefined;
  }
  return env.GITHUB_REF_TYPE === 'tag' ? nonEmpty(env.GITHUB_REF_NAME) : undefined;
}

/** The source, its configuration, the revision's, and the secrets. */
export function readSourceSettings(
  inputs: InputReading,
  command: CommandName,
  env: Environment,
): SourceSettings {
  const { attempt, problem } = inputs;
  const source = inputs.choice('source', SOURCE_KINDS) ?? INPUT_DEFAULTS.source;
  const sourceConfig = readSourceConfig(inputs);
  checkSourceConfigFor(inputs, source, sourceConfig);
  const revisionConfig = readRevisionConfig(inputs, command, source, env);
  checkTagRef(
    inputs,
    revisionConfig.repo_ref,
    sourceConfig,
    tagOrigin(inputs.text('repo-ref'), env),
  );

  // Untrimmed: the secrets' own lines and indentation are the parser's to judge.
  const secretsRaw = inputs.raw('secrets');
  const secrets =
    secretsRaw.trim() === '' ? [] : (attempt(() => parseSecrets('secrets', secretsRaw, env)) ?? []);
  const reserved = secrets.filter((secret) => RESERVED_ENV_NAMES.has(secret.name));
  if (reserved.length > 0) {
    const names = reserved.map((secret) => secret.name).join(', ');
    problem(
      'secrets',
      `Input 'secrets' sets ${names}, which the platform reserves (it sets ${reserved.length === 1 ? 'this variable' : 'these variables'} itself and refuses ${reserved.length === 1 ? 'it' : 'them'} as ${reserved.length === 1 ? 'a secret' : 'secrets'}). Rename ${reserved.length === 1 ? 'it' : 'them'} in 'secrets' (and where the app reads ${reserved.length === 1 ? 'it' : 'them'}).`,
    );
  }

  const minMaskLength = inputs.integer('min-mask-length', DEFAULT_MIN_MASK_LENGTH, {
    min: 1,
    max: 1000,
  });
  return { source, sourceConfig, revisionConfig, secrets, minMaskLength };
}

function readSourceConfig({ text, parsed, flag, problem }: InputReading): SourceConfig {
  const config: SourceConfig = {};
  const integrationId = text('integration-id');
  if (integrationId !== undefined) config.integration_id = integrationId;
  const repoUrl = parsed('repo-url', (v) => parseHttpUrl('repo-url', v));
  if (repoUrl !== undefined) config.repo_url = repoUrl;
  if (text('build-on-push') !== undefined) config.build_on_push = flag('build-on-push', false);
  const customUrl = parsed('custom-url', (v) => parseHttpUrl('custom-url', v));
  if (customUrl !== undefined) config.custom_url = customUrl;
  const listenerId = text('listener-id');
  if (listenerId !== undefined) config.listener_id = listenerId;
  const namespace = text('k8s-namespace');
  if (namespace !== undefined) {
    if (listenerId === undefined) {
      problem(
        'k8s-namespace',
        `Input 'k8s-namespace' is set to "${namespace}" but 'listener-id' is empty. A namespace belongs to a listener: set 'listener-id' too, or remove 'k8s-namespace'.`,
      );
    }
    config.listener_config = { k8s_namespace: namespace };
  }
  const installCommand = text('install-command');
  if (installCommand !== undefined) config.install_command = installCommand;
  const buildCommand = text('build-command');
  if (buildCommand !== undefined) config.build_command = buildCommand;
  const resourceSpec = parsed('resource-spec', (v) => parseResourceSpec('resource-spec', v));
  if (resourceSpec !== undefined) config.resource_spec = resourceSpec;
  return config;
}

/**
 * What a source kind takes (known-behaviour.md): the tier (`deployment-type`) is a hosted_repo's,
 * `resource-spec` a container's (a hosted deployment is sized by its tier), and `custom-url` an
 * external container's (the server sets every other deployment's URL).
 */
function checkSourceConfigFor(
  { choice, problem }: InputReading,
  source: SourceKind,
  config: SourceConfig,
): void {
  const deploymentType = choice('deployment-type', DEPLOYMENT_TYPES);
  if (deploymentType !== undefined) {
    if (source === 'hosted_repo') config.deployment_type = deploymentType;
    else {
      problem(
        'deployment-type',
        `Input 'deployment-type' is '${deploymentType}', but the tier applies to hosted_repo deployments only; source '${source}' runs on your own compute, sized by 'resource-spec'. Remove 'deployment-type', or use source 'hosted_repo'.`,
      );
    }
  }
  if (config.resource_spec !== undefined && source === 'hosted_repo') {
    problem(
      'resource-spec',
      `Input 'resource-spec' is set, but a hosted_repo deployment is sized by its tier, not by a resource spec (the control plane applies resource_spec to container deployments only). Remove 'resource-spec' and set 'deployment-type' (${DEPLOYMENT_TYPES.join(', ')}) instead, or use source 'external_container'.`,
    );
  }
  if (config.custom_url !== undefined && source !== 'external_container') {
    problem(
      'custom-url',
      `Input 'custom-url' is set, but the control plane sets the URL of a ${source} deployment itself (only an external_container deployment takes one). Remove 'custom-url'; the 'deployment-url' output gives the URL.`,
    );
  }
}

/**
 * Where the tag deployed came from, in words: the user may never have set `repo-ref` (it is the
 * run's own tag then), and a message must not blame an input they did not write.
 */
export function tagOrigin(repoRefInput: string | undefined, env: Environment): string {
  const tag = runTag(env);
  if (repoRefInput === undefined) {
    return `'repo-ref' is empty, so the tag is the one this run is for (${TAG_REF_PREFIX}${tag ?? ''}, from GITHUB_REF)`;
  }
  if (tag !== undefined && repoRefInput === tag) {
    return `'repo-ref' is ${repoRefInput}, this run's own tag, sent as ${TAG_REF_PREFIX}${tag}`;
  }
  return `'repo-ref' is the tag ${repoRefInput}`;
}

/** A tag never moves: with a tag ref, build_on_push is false, and asking for true is an error. */
function checkTagRef(
  { problem }: Pick<InputReading, 'problem'>,
  repoRef: string | undefined,
  config: SourceConfig,
  origin: string,
): void {
  if (!isTagRef(repoRef)) return;
  if (config.build_on_push === true) problem('build-on-push', buildOnPushWithTagMessage(origin));
  config.build_on_push = false;
}

/** `build-on-push: true` with a tag; `origin` says where the tag came from. */
export function buildOnPushWithTagMessage(origin: string): string {
  return `Input 'build-on-push' is true, but ${origin}: a tag never moves, so there is nothing to build on push, and the control plane refuses it. Remove 'build-on-push' (it is sent as false with a tag), or deploy a branch ('repo-ref: main').`;
}

function readRevisionConfig(
  { text, problem }: InputReading,
  command: CommandName,
  source: SourceKind,
  env: Environment,
): SourceRevisionConfig {
  const config: SourceRevisionConfig = {};
  const graphConfigPath = text('graph-config-path');
  const imageUri = text('image-uri');
  if (source === 'hosted_repo') {
    if (imageUri !== undefined) {
      problem(
        'image-uri',
        "Input 'image-uri' is set, but source 'hosted_repo' builds from the repository. Remove 'image-uri', or set 'source' to external_container or internal_container.",
      );
    }
    if (graphConfigPath !== undefined) config.graph_config_path = graphConfigPath;
    const repoRef = fullRef(text('repo-ref'), env) ?? defaultRepoRef(env);
    if (repoRef !== undefined) config.repo_ref = repoRef;
    return config;
  }
  if (graphConfigPath !== undefined) {
    problem(
      'graph-config-path',
      `Input 'graph-config-path' is set, but source '${source}' deploys an image and takes no graph configuration. Remove 'graph-config-path', or use source 'hosted_repo'.`,
    );
  }
  if (imageUri !== undefined) config.image_uri = imageUri;
  else if (command === 'deploy') {
    problem(
      'image-uri',
      `Input 'image-uri' is empty, but source '${source}' deploys a container image. Set 'image-uri' to the image to deploy (e.g. registry.example.com/agent:1.2.3).`,
    );
  }
  return config;
}

/** The run's own tag given by its bare name (`github.ref_name`) is the full ref the service takes. */
function fullRef(repoRef: string | undefined, env: Environment): string | undefined {
  const tag = runTag(env);
  return tag !== undefined && repoRef === tag ? `${TAG_REF_PREFIX}${tag}` : repoRef;
}
