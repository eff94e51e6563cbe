/**
 * `skip-unchanged`: deciding whether the active revision already runs exactly what this deploy
 * would send, so that the deploy can send nothing and wait for nothing. Pure.
 *
 * The rule is "skip only what is proven the same": any missing fact (no commit sha, no workflow
 * commit, a field this version does not know, a revision other than the active one in the way)
 * means deploy. Checks that need no request come first; the active revision is read only when
 * everything else already matches (`read-active`), and the revisions list only when that
 * revision does not show what it was built with (`read-revisions`).
 *
 * A redeploy (a rollback, `command: redeploy`) adds a revision that ships an older revision's
 * code and build, made with the configuration the deployment held back then. The deployment's
 * source_config says what the next build will use, not what the active revision was built with.
 * So the active revision must be the newest one, and must have been built from this
 * configuration: shown by its own source_config when the server sends one, else by being the
 * first revision of its code (no older revision it could be a redeploy of).
 *
 * What no answer shows (secret values the server masks, fields it never echoes, which of two
 * builds of one commit is active) only the deploy record can prove (deploy-record.ts): it is read
 * last (`read-record`), and only when nothing else rules the skip out.
 */
import type { Deployment, Revision } from '../api/schemas.ts';
import { type DeployPlan, type DesiredDeployment, sameSourceConfigValue } from './deploy-plan.ts';
import { type DeployRecord, type RecordEvidence, recordSource } from './deploy-record.ts';
import { sameDigest } from './record-digest.ts';
import { codeOf, oldestFirst } from './rollback-target.ts';

/** The workflow a run belongs to: its own ref and the commit that ref had (PR head on PRs). */
export interface WorkflowCheckout {
  ref?: string;
  commit?: string;
}

export interface SkipInput {
  desired: DesiredDeployment;
  /** What the deploy would send (planDeploy's answer for `existing`). */
  plan: DeployPlan;
  /** The deployment as found before the deploy; undefined when the deploy creates it. */
  existing: Deployment | undefined;
  workflow: WorkflowCheckout;
  /** The active revision, once read (see `read-active`). */
  activeRevision?: Revision;
  /**
   * The deployment's revisions, newest first, once read (see `read-revisions`); null when the
   * server does not list revisions.
   */
  revisions?: readonly Revision[] | null;
  /** The deploy record, once looked for (see `read-record`). */
  record?: RecordEvidence;
}

/** Where a skip proven by a deploy record got its proof. */
interface SkipProof {
  record: DeployRecord;
  where?: string;
}

export type SkipDecision =
  | {
      kind: 'deploy';
      reason: string;
      /** Why the deploy record proved nothing, when one was looked for. */
      recordFailure?: string;
    }
  /** Everything known matches: read this revision and decide again with it. */
  | { kind: 'read-active'; revisionId: string }
  /** The active revision does not show what it was built with: read the revisions list. */
  | { kind: 'read-revisions' }
  /** Only the deploy record can prove the rest: look for it and decide again with it. */
  | { kind: 'read-record' }
  | { kind: 'skip'; revision: Revision; reason: string; proof?: SkipProof };

/** The source_revision_config fields this version knows; any other one cannot be compared. */
const KNOWN_REVISION_CONFIG_KEYS = new Set([
  'repo_ref',
  'graph_config_path',
  'image_uri',
  'repo_commit_sha',
]);

/** `quiet`: the record was out of reach by the workflow's own choice (no token): no notice. */
const deploy = (reason: string, recordFailure?: string, quiet = false): SkipDecision => ({
  kind: 'deploy',
  reason:
    recordFailure === undefined
      ? reason
      : `${reason}; and no deploy record proves it: ${recordFailure}`,
  ...(recordFailure === undefined || quiet ? {} : { recordFailure }),
});

export function decideSkip(input: SkipInput): SkipDecision {
  const { desired, plan, existing, activeRevision } = input;
  if (existing === undefined || plan.action !== 'patch') {
    return deploy('the deployment does not exist yet');
  }
  // What the server shows and differs is a change: no record can prove it away.
  const shownDifferences = Object.keys(plan.body.source_config ?? {})
    .map((key) => `source_config.${key}`)
    .filter((field) => !plan.unverified.includes(field));
  if (shownDifferences.length > 0) {
    return deploy(
      `${shownDifferences.join(', ')} differ${shownDifferences.length === 1 ? 's' : ''} from the deployment's`,
    );
  }
  if (existing.status !== 'READY') {
    return deploy(`the deployment's status is ${existing.status ?? 'not reported'}, not READY`);
  }
  const activeId = existing.active_revision_id;
  if (!activeId) return deploy('no revision of the deployment is active');
  if (existing.latest_revision_id !== activeId) {
    return deploy(
      `the latest revision (${existing.latest_revision_id ?? 'not reported'}) is not the active one (${activeId}): a newer revision is rolling out or failed`,
    );
  }
  // For a deployment, source_revision_config describes the latest revision (spec 2.1), which is
  // the active one here: most differences show before any request.
  const fromDeployment = compareRevisionConfig(
    input,
    existing.source_revision_config,
    'deployment',
  );
  if (fromDeployment !== undefined) return deploy(fromDeployment);
  // What no answer shows (secret values the server masks, fields it never echoes) only the
  // deploy record can prove: it is looked for first, so that a run without one reads no more.
  const unprovable = unprovableByAnswers(desired, plan);
  if (unprovable !== undefined) {
    if (input.record === undefined) return { kind: 'read-record' };
    if (input.record.kind === 'unavailable') {
      return deploy(unprovable, input.record.why, input.record.quiet);
    }
  }

  if (activeRevision === undefined) return { kind: 'read-active', revisionId: activeId };
  if (activeRevision.id !== activeId) {
    return deploy(`the server answered revision ${activeRevision.id} for ${activeId}`);
  }
  if (activeRevision.status !== 'DEPLOYED') {
    return deploy(`active revision ${activeId} reads ${activeRevision.status}, not DEPLOYED`);
  }
  if (activeRevision.source != null && activeRevision.source !== desired.source) {
    return deploy(`active revision ${activeId} has source ${activeRevision.source}`);
  }
  const fromRevision = compareRevisionConfig(
    input,
    activeRevision.source_revision_config,
    'active revision',
  );
  if (fromRevision !== undefined) return deploy(fromRevision);
  // A revision built before a source_config-only change (e.g. build_command), or a redeploy of
  // an older one, does not run the deployment's current source_config.
  const builtWith: Record<string, unknown> | null | undefined = activeRevision.source_config;
  if (builtWith != null) {
    for (const [key, value] of Object.entries(desired.sourceConfig)) {
      // Omitted or server-filled is no difference (sameSourceConfigValue); only a shown other value is.
      if (sameSourceConfigValue(key, builtWith[key], value) === false) {
        return deploy(
          `active revision ${activeId} was built with a different source_config.${key} than this run's (a rollback or redeploy ships an older revision's build)`,
        );
      }
    }
  }

  // Without the record's proof, deploy, as before the record existed.
  if (unprovable !== undefined) {
    const proof = recordProof(input, activeRevision);
    if (proof.proven) return skipProvenBy(input, activeRevision, proof.by);
    return deploy(unprovable, proof.why);
  }
  if (builtWith != null) {
    return { kind: 'skip', revision: activeRevision, reason: sameAsReason(input, activeRevision) };
  }
  const notFirst = redeployedFrom(activeRevision, input.revisions);
  if (notFirst === 'read') return { kind: 'read-revisions' };
  if (notFirst === undefined) {
    return { kind: 'skip', revision: activeRevision, reason: sameAsReason(input, activeRevision) };
  }
  // The revisions list cannot tell a commit built twice from a redeploy: a record can.
  if (input.record === undefined) return { kind: 'read-record' };
  const proof = recordProof(input, activeRevision);
  if (proof.proven) return skipProvenBy(input, activeRevision, proof.by);
  return deploy(notFirst, proof.why, input.record.kind === 'unavailable' && input.record.quiet);
}

/** Why answers alone cannot prove this run the same (secrets, unechoed fields), or undefined. */
function unprovableByAnswers(desired: DesiredDeployment, plan: DeployPlan): string | undefined {
  const reasons: string[] = [];
  if (desired.secrets.length > 0) {
    reasons.push(
      "the 'secrets' input is set, and whether the active revision was deployed with these values cannot be proven from the control plane's answers",
    );
  }
  if (plan.action === 'patch' && plan.unverified.length > 0) {
    const one = plan.unverified.length === 1;
    reasons.push(
      `${plan.unverified.join(', ')} ${one ? 'is' : 'are'} set, and the control plane does not echo ${one ? 'it' : 'them'}, so whether the deployment already has ${one ? 'it' : 'them'} cannot be proven`,
    );
  }
  return reasons.length === 0 ? undefined : reasons.join('; ');
}

/**
 * Whether the deploy record proves that the active revision is this run's desired state: all of
 * a record for this deployment naming the active revision, made for this desired state (commit,
 * inputs, secret values), every secret of the inputs shown by the server with the input's value,
 * and what the server shows now the same as when the record was made.
 */
function recordProof(
  input: SkipInput,
  active: Revision,
): { proven: true; by: SkipProof } | { proven: false; why: string } {
  const evidence = input.record;
  if (evidence === undefined || evidence.kind === 'unavailable') {
    return { proven: false, why: evidence?.why ?? 'it was not looked for' };
  }
  const { record } = evidence;
  const from = `the deploy record of ${recordSource(record)}`;
  if (record.deploymentId !== input.existing?.id) {
    return { proven: false, why: `${from} is for deployment ${record.deploymentId}` };
  }
  const secrets = secretsShownDiffer(input.desired.secrets, evidence.secretsNow);
  if (secrets !== undefined) return { proven: false, why: secrets };
  if (!sameDigest(record.desired, evidence.desiredNow)) {
    return {
      proven: false,
      why: `${from} was made for another desired state (the commit or image, an input, or a secret value differs from this run's)`,
    };
  }
  if (record.revisionId !== active.id) {
    return {
      proven: false,
      why: `${from} names revision ${record.revisionId}, but revision ${active.id} is active (a rollback, a redeploy, or a deploy by someone else since)`,
    };
  }
  if (!sameDigest(record.shown, evidence.shownNow)) {
    return {
      proven: false,
      why: `the configuration or secret values the control plane shows changed since ${from} was made (a change made outside this workflow)`,
    };
  }
  return {
    proven: true,
    by: { record, ...(evidence.where === undefined ? {} : { where: evidence.where }) },
  };
}

/**
 * Secrets of the inputs whose value the server does not show as the input's: values are compared
 * in memory and never told, only names. A server that answers placeholders differs here too.
 */
function secretsShownDiffer(
  wanted: readonly { name: string; value: string }[],
  shown: readonly { name: string; value?: string | null | undefined }[],
): string | undefined {
  const byName = new Map(shown.map((secret) => [secret.name, secret.value]));
  const missing = wanted.filter((secret) => !byName.has(secret.name)).map((s) => s.name);
  if (missing.length > 0) {
    return `the deployment has no secret ${missing.join(', ')}`;
  }
  const unshown = wanted.filter((secret) => typeof byName.get(secret.name) !== 'string');
  if (unshown.length > 0) {
    return `the control plane does not show the value of secret ${unshown.map((s) => s.name).join(', ')}, so it cannot be compared`;
  }
  const other = wanted.filter((secret) => byName.get(secret.name) !== secret.value);
  if (other.length > 0) {
    return `the control plane shows another value for secret ${other.map((s) => s.name).join(', ')} than the input's (a rotated secret, or a placeholder the server shows instead of values)`;
  }
  return undefined;
}

function skipProvenBy(input: SkipInput, revision: Revision, proof: SkipProof): SkipDecision {
  const config = revision.source_revision_config ?? {};
  const what =
    input.desired.source === 'hosted_repo'
      ? `commit ${config.repo_commit_sha ?? ''} of ${config.repo_ref ?? ''}`
      : `image ${config.image_uri ?? ''}`;
  return {
    kind: 'skip',
    revision,
    proof,
    reason: `Active revision ${revision.id} already runs ${what}, and the deploy record of ${recordSource(proof.record)} proves it was deployed from this run's inputs and secret values (a keyed digest), with the configuration and secret values the control plane shows unchanged since: nothing was sent and nothing was rebuilt. Set 'skip-unchanged: false' to rebuild anyway.`,
  };
}

/**
 * Why the active revision may not have been built from the current configuration, judged from
 * the revisions list: undefined when it is the newest revision and the first of its code;
 * 'read' when the list is still to be read.
 */
function redeployedFrom(
  active: Revision,
  revisions: readonly Revision[] | null | undefined,
): string | undefined | 'read' {
  if (revisions === undefined) return 'read';
  if (revisions === null) {
    return `the control plane shows neither what active revision ${active.id} was built with nor the list of revisions, so it may be a redeploy (a rollback) of an older build`;
  }
  const ordered = oldestFirst(revisions);
  const newest = ordered.at(-1);
  if (newest?.id !== active.id) {
    return `revision ${newest?.id ?? '(none listed)'} is newer than the active one (${active.id})`;
  }
  const code = codeOf(active);
  const older = ordered.slice(0, -1).findLast((revision) => codeOf(revision) === code);
  if (older !== undefined) {
    return `active revision ${active.id} runs the same code as the older revision ${older.id}: it may be a redeploy (a rollback, or 'command: redeploy') of an older revision's build, made with the configuration the deployment held then, and the control plane does not show what it was built with`;
  }
  return undefined;
}

/** Why the revision config described by `config` may differ from this run's, or undefined. */
function compareRevisionConfig(
  input: SkipInput,
  config: Record<string, unknown> | null | undefined,
  whose: string,
): string | undefined {
  const { desired, workflow } = input;
  if (config == null) return `the ${whose} reports no source_revision_config`;
  const unknown = Object.keys(config).filter(
    (key) => !KNOWN_REVISION_CONFIG_KEYS.has(key) && config[key] != null,
  );
  if (unknown.length > 0) {
    return `the ${whose} has source_revision_config field${unknown.length === 1 ? '' : 's'} this version cannot compare: ${unknown.join(', ')}`;
  }
  const wanted = desired.revisionConfig;
  if (
    wanted.graph_config_path !== undefined &&
    config.graph_config_path !== wanted.graph_config_path
  ) {
    return `the ${whose} uses graph_config_path ${show(config.graph_config_path)}, this run ${show(wanted.graph_config_path)}`;
  }
  if (desired.source === 'hosted_repo') {
    const ref = wanted.repo_ref;
    if (ref === undefined) return "no 'repo-ref' is given and the workflow's ref is unknown";
    if (ref !== workflow.ref) {
      return `'repo-ref' is ${show(ref)}, not the workflow's own ref${workflow.ref ? ` (${show(workflow.ref)})` : ''}, so the commit it points at is unknown`;
    }
    if (!workflow.commit) return "the workflow's commit (GITHUB_SHA) is unknown";
    if (config.repo_ref !== ref) {
      return `the ${whose} was built from ref ${show(config.repo_ref)}, this run deploys ${show(ref)}`;
    }
    const sha = config.repo_commit_sha;
    if (typeof sha !== 'string' || sha === '') {
      return `the ${whose} reports no repo_commit_sha, so its commit is unknown`;
    }
    if (sha.toLowerCase() !== workflow.commit.toLowerCase()) {
      return `the ${whose} runs commit ${sha}, the workflow is at ${workflow.commit}`;
    }
    return undefined;
  }
  const image = wanted.image_uri;
  if (image === undefined) return "'image-uri' is empty";
  if (config.image_uri !== image) {
    return `the ${whose} runs image ${show(config.image_uri)}, this run deploys ${show(image)}`;
  }
  if (isMovingTag(image)) {
    return `image ${image} is named by a moving tag, so the same name may be a new image: pin a version tag or a digest (@sha256:...) to let unchanged deploys be skipped`;
  }
  return undefined;
}

function sameAsReason(input: SkipInput, revision: Revision): string {
  const config = revision.source_revision_config ?? {};
  const what =
    input.desired.source === 'hosted_repo'
      ? `commit ${config.repo_commit_sha ?? ''} of ${config.repo_ref ?? ''}`
      : `image ${config.image_uri ?? ''}`;
  return `Active revision ${revision.id} already runs ${what} with this run's configuration, and no secrets are given: nothing was sent and nothing was rebuilt. Set 'skip-unchanged: false' to rebuild anyway.`;
}

/**
 * `:latest`, or no tag at all (which means latest), names whatever was pushed last. A digest
 * names one image; any other tag is taken as a release that is not pushed over.
 */
export function isMovingTag(imageUri: string): boolean {
  if (imageUri.includes('@')) return false;
  const lastSegment = imageUri.slice(imageUri.lastIndexOf('/') + 1);
  const colon = lastSegment.lastIndexOf(':');
  return colon === -1 || lastSegment.slice(colon + 1) === 'latest';
}

function show(value: unknown): string {
  return value === undefined || value === null ? '(none)' : JSON.stringify(value);
}
