/**
 * The documented redeploy rule (known-behaviour.md, "Redeploy semantics"): a refused redeploy and
 * the way on, and how a redeploy that keeps its revision DEPLOYED is seen to end. Pure.
 *
 * The documented rule redeploys only the deployment's latest revision, and only while it is
 * DEPLOYED; anything else answers 400. A 400 is that refusal only when the reads after it show
 * the rule's condition (the revision is not DEPLOYED, or not the latest): the detail's wording is
 * never matched, and any other 400 fails with the server's words.
 *
 * The way on is a new revision of the same source, a rebuild, where the source allows one:
 * - containers take the image again (a tag may name other bytes by now: pin by digest);
 * - hosted_repo with a tag ref builds the tag again (a tag never moves; build_on_push false);
 * - hosted_repo with a branch ref builds the branch's head as it stands: a retry may (it deploys
 *   the ref anyway), a rollback only while the head is still the commit the older revision ran,
 *   since the service cannot go back to an older commit of a branch;
 * - internal_source cannot be rebuilt: its archive was uploaded outside this API.
 */
import type { PatchDeploymentRequest } from '../api/schemas.ts';

/** What a 400 to .../redeploy turned out to be, once the revision and the deployment were read. */
type Redeploy400 =
  /** The documented refusal: `why` says which condition held, in words. */
  | { kind: 'refused'; why: string }
  /** Not shown to be that refusal: the server's own words stand. `why`: what the reads showed. */
  | { kind: 'other'; why: string };

export interface Redeploy400Facts {
  revisionId: string;
  /** The revision's status read after the 400; undefined when that read failed. */
  revisionStatus: string | undefined;
  /**
   * The deployment's latest_revision_id read after the 400: null when it names none, undefined
   * when the read failed.
   */
  latestRevisionId: string | null | undefined;
}

export function judgeRedeploy400(facts: Redeploy400Facts): Redeploy400 {
  const { revisionId, revisionStatus, latestRevisionId } = facts;
  const reasons: string[] = [];
  if (revisionStatus !== undefined && revisionStatus !== 'DEPLOYED') {
    reasons.push(`it is ${revisionStatus}, not DEPLOYED`);
  }
  if (typeof latestRevisionId === 'string' && latestRevisionId !== revisionId) {
    reasons.push(`it is not the deployment's latest revision (${latestRevisionId} is)`);
  }
  if (reasons.length > 0) {
    return {
      kind: 'refused',
      why: `revision ${revisionId} cannot be redeployed: ${reasons.join(', and ')}; the service redeploys only its latest revision, and only once that is DEPLOYED`,
    };
  }
  const unread = [
    ...(revisionStatus === undefined ? [`revision ${revisionId}`] : []),
    ...(latestRevisionId === undefined ? ['the deployment'] : []),
  ];
  return {
    kind: 'other',
    why:
      unread.length > 0
        ? `${unread.join(' and ')} could not be read after the 400, so it is not known to be the documented refusal`
        : `revision ${revisionId} is DEPLOYED and the deployment's latest, so this is not the documented refusal`,
  };
}

/** Why a refused redeploy is followed by a new revision. */
type RebuildPurpose =
  /** deploy-retries: the DEPLOY_FAILED revision of this run, built again. */
  | 'retry'
  /** rollback-on-failure: what served before this run's write. */
  | 'rollback'
  /** command: redeploy: an older revision (asked by id, or `previous`). */
  | 'redeploy';

/** The revision fields the rebuild reads. */
export interface RevisionCode {
  id: string;
  source_revision_config?:
    | {
        repo_ref?: string | null | undefined;
        graph_config_path?: string | null | undefined;
        image_uri?: string | null | undefined;
        repo_commit_sha?: string | null | undefined;
      }
    | null
    | undefined;
}

/** What is known of a branch's head when a rebuild of the branch needs it. */
export type BranchHead = { sha: string } | { unknown: string };

export interface RebuildFacts {
  purpose: RebuildPurpose;
  /** The deployment's source kind (its answer's, else the inputs'); undefined when unknown. */
  source: string | undefined;
  /** The revision whose redeploy was refused: the one the new revision builds again. */
  target: RevisionCode;
  /** What production serves (for a rollback: the failed release), when it is another revision. */
  serving?: RevisionCode;
  /** rollback-on-failure: the resource_spec the deployment had before this run's write. */
  resourceSpecBefore?: Record<string, unknown>;
  /** A branch rebuild of a rollback: its head, once read (see `read-branch-head`). */
  branchHead?: BranchHead;
}

export interface RebuildNotice {
  level: 'notice' | 'warning';
  message: string;
}

export type RebuildPlan =
  /** A new revision with `body` (a PATCH body: writeNewRevision splits it). */
  | {
      kind: 'rebuild';
      body: PatchDeploymentRequest;
      /** What it builds, in words: "image X", "tag refs/tags/v1", "branch main (commit abc)". */
      builds: string;
      /** The image or ref the new revision carries: how it is told apart once made. */
      identity: { kind: 'image'; imageUri: string } | { kind: 'ref'; repoRef: string };
      notices: RebuildNotice[];
    }
  /** A branch rebuild of a rollback needs the branch's head: read it, then plan again. */
  | { kind: 'read-branch-head'; branch: string }
  /**
   * No rebuild: `why` (the source's part), `reason` (what production runs, then `why`) and
   * `nextStep` (the ways out).
   */
  | { kind: 'refuse'; why: string; reason: string; nextStep: string };

const TAG_PREFIX = 'refs/tags/';
const CONTAINER_SOURCES: ReadonlySet<string> = new Set([
  'external_container',
  'internal_container',
]);

/** A revision's code in words: "image X", "commit abc (branch main)", or its id. */
function codeText(revision: RevisionCode): string {
  const config = revision.source_revision_config ?? {};
  if (config.image_uri) return `image ${config.image_uri}`;
  if (config.repo_commit_sha) {
    return `commit ${config.repo_commit_sha}${config.repo_ref ? ` of ${refText(config.repo_ref)}` : ''}`;
  }
  if (config.repo_ref) return refText(config.repo_ref);
  return `revision ${revision.id}`;
}

function refText(ref: string): string {
  if (ref.startsWith(TAG_PREFIX)) return `tag ${ref}`;
  return `branch ${ref.replace(/^refs\/heads\//, '')}`;
}

/** The source kind, from the deployment, else from what the revision carries. */
function sourceOf(facts: RebuildFacts): string | undefined {
  if (facts.source) return facts.source;
  const config = facts.target.source_revision_config ?? {};
  if (config.image_uri) return 'external_container';
  if (config.repo_ref) return 'hosted_repo';
  return undefined;
}

/** Pinned by digest (`name@sha256:...`): the same bytes whenever it is pulled. */
export function pinnedByDigest(imageUri: string): boolean {
  return /@[a-z0-9]+:[0-9a-f]{32,}$/i.test(imageUri);
}

/** No rebuild: what production runs (the failed release, for a rollback), then why not. */
function refuse(facts: RebuildFacts, why: string, nextStep: string): RebuildPlan {
  const { serving, purpose } = facts;
  const which = purpose === 'rollback' ? 'the failed release, ' : '';
  const production =
    serving === undefined
      ? 'Production keeps serving what it serves now.'
      : `Production still runs ${which}revision ${serving.id} (${codeText(serving)}).`;
  return { kind: 'refuse', why, reason: `${production} ${why}`, nextStep };
}

export function planRebuild(facts: RebuildFacts): RebuildPlan {
  const { target, purpose } = facts;
  const config = target.source_revision_config ?? {};
  const source = sourceOf(facts);
  const same = sameCodeNotice(facts);
  const resourceSpec =
    purpose === 'rollback' &&
    source !== 'hosted_repo' &&
    facts.resourceSpecBefore !== undefined &&
    Object.keys(facts.resourceSpecBefore).length > 0
      ? { source_config: { resource_spec: facts.resourceSpecBefore } }
      : {};

  if (source !== undefined && CONTAINER_SOURCES.has(source)) {
    const image = config.image_uri;
    if (!image) {
      return refuse(
        facts,
        `Revision ${target.id} shows no image_uri, so the image to deploy again is not known.`,
        "Deploy the image you want with 'command: deploy' and 'image-uri'.",
      );
    }
    const notices: RebuildNotice[] = [];
    if (!pinnedByDigest(image)) {
      notices.push({
        level: 'warning',
        message: `Image ${image} is not pinned by digest: its tag may name other bytes now than when revision ${target.id} ran. Pin images by digest (name@sha256:...) so that a rebuild runs the very same image.`,
      });
    }
    if (same !== undefined) notices.push(same);
    return {
      kind: 'rebuild',
      body: { ...resourceSpec, source_revision_config: { image_uri: image } },
      builds: `image ${image}`,
      identity: { kind: 'image', imageUri: image },
      notices,
    };
  }

  if (source === 'hosted_repo') {
    const ref = config.repo_ref;
    if (!ref) {
      return refuse(
        facts,
        `Revision ${target.id} shows no repo_ref, so what to build again is not known.`,
        "Deploy the ref you want with 'command: deploy' and 'repo-ref'.",
      );
    }
    const revisionConfig = {
      repo_ref: ref,
      ...(config.graph_config_path ? { graph_config_path: config.graph_config_path } : {}),
    };
    if (ref.startsWith(TAG_PREFIX)) {
      return {
        kind: 'rebuild',
        body: { source_config: { build_on_push: false }, source_revision_config: revisionConfig },
        builds: `tag ${ref}`,
        identity: { kind: 'ref', repoRef: ref },
        notices: [
          {
            level: 'notice',
            message: `A new revision of tag ${ref}, sent with build_on_push: false, as a tag requires (a tag never moves, so it builds the same commit).`,
          },
          ...(same === undefined ? [] : [same]),
        ],
      };
    }
    const branch = ref.replace(/^refs\/heads\//, '');
    const rebuildBranch = (commit: string | undefined): RebuildPlan => ({
      kind: 'rebuild',
      body: { source_revision_config: revisionConfig },
      builds: `branch ${branch}${commit === undefined ? '' : ` (commit ${commit})`}`,
      identity: { kind: 'ref', repoRef: ref },
      notices: same === undefined ? [] : [same],
    });
    // A retry deploys the ref as this run did: the head it builds is this run's to deploy.
    if (purpose === 'retry') return rebuildBranch(undefined);
    const commit = config.repo_commit_sha ?? undefined;
    const ways = waysOut(branch, commit);
    if (!commit) {
      return refuse(
        facts,
        `Revision ${target.id} shows no commit (repo_commit_sha), and the service cannot go back to an older commit of a branch: a new revision of branch ${branch} builds its head, which may not be the code revision ${target.id} ran.`,
        ways,
      );
    }
    const head = facts.branchHead;
    if (head === undefined) return { kind: 'read-branch-head', branch };
    if ('sha' in head && head.sha.toLowerCase() === commit.toLowerCase()) {
      return rebuildBranch(commit);
    }
    const headText =
      'sha' in head
        ? `its head is now commit ${head.sha}`
        : `whether its head is still that commit could not be read (${head.unknown})`;
    return refuse(
      facts,
      `The service cannot go back to an older commit of a branch: a new revision of branch ${branch} builds the branch's head, and revision ${target.id} ran commit ${commit}, but ${headText}.`,
      ways,
    );
  }

  if (source === 'internal_source') {
    return refuse(
      facts,
      `Revision ${target.id} is an internal_source revision, whose source archive was uploaded outside this API, so the action cannot build it again.`,
      'Upload that source again the way it was deployed (the official command-line client), or fix the app and deploy again.',
    );
  }
  return refuse(
    facts,
    `The deployment's source (${source ?? 'not shown'}) is not one the action can build a revision of.`,
    'Redeploy it the way it was deployed, or fix the app and deploy again.',
  );
}

function waysOut(branch: string, commit: string | undefined): string {
  const of = commit === undefined ? '' : ` of commit ${commit}`;
  return `Ways out: deploy the previous tag ('repo-ref: refs/tags/<tag>', a tag${of}; a tag always builds its own commit), or revert the bad commit on ${branch} ('git revert') and deploy ${branch} again.`;
}

/** The failed or serving release runs the same code as the target: only configuration changes. */
function sameCodeNotice(facts: RebuildFacts): RebuildNotice | undefined {
  const { serving, target, purpose } = facts;
  if (purpose === 'retry' || serving === undefined) return undefined;
  const a = serving.source_revision_config ?? {};
  const b = target.source_revision_config ?? {};
  const same =
    (a.image_uri && a.image_uri === b.image_uri) ||
    (a.repo_commit_sha &&
      b.repo_commit_sha &&
      a.repo_commit_sha.toLowerCase() === b.repo_commit_sha.toLowerCase());
  if (!same) return undefined;
  return {
    level: 'notice',
    message: `Revision ${serving.id} runs the same ${a.image_uri ? 'image' : 'commit'} as revision ${target.id} (${codeText(target)}): the rebuild restores revision ${target.id}'s configuration only, not other code.`,
  };
}

/** For a dry run: "a new revision of image X", "... of branch main, only if ...". */
export function rebuildWayText(source: string | undefined, target: RevisionCode): string {
  const plan = planRebuild({ purpose: 'redeploy', source, target });
  const config = target.source_revision_config ?? {};
  switch (plan.kind) {
    case 'rebuild':
      return `a new revision of ${plan.builds}${plan.builds.startsWith('tag') ? ' (build_on_push: false)' : ''}`;
    case 'read-branch-head': {
      const commit = config.repo_commit_sha ?? '';
      return `a new revision of branch ${plan.branch}, only if the branch still points at commit ${commit} (otherwise it would fail: the service cannot go back to an older commit of a branch)`;
    }
    case 'refuse':
      return `nothing (${plan.why.replace(/\.$/, '')})`;
  }
}

/** Where a redeploy answered without a new revision stands, from one read of its revision. */
type InPlaceRedeploy =
  /** Its status left DEPLOYED: follow it by status, as any rollout. */
  | { kind: 'rolling-out' }
  /** Still DEPLOYED, and its updated_at moved past the one read before the redeploy: done. */
  | { kind: 'ended' }
  /** Still DEPLOYED, updated_at unmoved: the redeploy has not shown its end yet. */
  | { kind: 'waiting' }
  /** The server shows no updated_at: the end of the redeploy cannot be seen at all. */
  | { kind: 'unseen' };

/**
 * The documented rule redeploys the latest DEPLOYED revision again without a new revision, and
 * the revision may stay DEPLOYED throughout: its status cannot tell when the redeploy is over.
 * Its updated_at can: the service moves it when the redeploy is done. Either sign ends the wait
 * (a status that left DEPLOYED is followed as any rollout); the caller bounds it by the deadline.
 */
export function inPlaceRedeploy(
  updatedAtBefore: string | null | undefined,
  now: { status: string; updated_at?: string | null | undefined },
): InPlaceRedeploy {
  if (now.status !== 'DEPLOYED') return { kind: 'rolling-out' };
  if (!updatedAtBefore || !now.updated_at) return { kind: 'unseen' };
  if (now.updated_at === updatedAtBefore) return { kind: 'waiting' };
  const before = Date.parse(updatedAtBefore);
  const after = Date.parse(now.updated_at);
  // Unparseable text that changed has moved; a parseable one must not go back in time.
  return Number.isNaN(before) || Number.isNaN(after) || after >= before
    ? { kind: 'ended' }
    : { kind: 'waiting' };
}
