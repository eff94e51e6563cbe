/**
 * The emulator's deployments and revisions, and the rules that change them: creating, patching,
 * redeploying and deleting. Statuses are not stored; they are computed from the clock
 * (lifecycle.ts), and a deleted deployment disappears once its deletion time has passed.
 */
import { createHash, randomUUID } from 'node:crypto';
import type {
  CreateDeploymentRequest,
  CreateRevisionRequest,
  PatchDeploymentRequest,
  Secret,
  SourceConfig,
  SourceKind,
  SourceRevisionConfig,
} from './api-shapes.ts';
import type { EmulatorClock } from './clock.ts';
import {
  isPending,
  planFor,
  type RevisionPlan,
  type RevisionState,
  revisionStateAt,
} from './lifecycle.ts';
import type { ResolvedOptions } from './options.ts';
import type { RevisionScript, ServiceMadeRevision } from './types.ts';

/** A revision's source_revision_config as answered: with the commit, once it is known. */
export interface AnsweredRevisionConfig extends SourceRevisionConfig {
  repo_commit_sha?: string;
}

/** The statuses in which a revision is in progress (EmulatorOptions.revisionInProgressConflict). */
export const IN_PROGRESS_STATUSES: ReadonlySet<string> = new Set([
  'CREATING',
  'QUEUED',
  'AWAITING_BUILD',
  'BUILDING',
  'AWAITING_DEPLOY',
  'DEPLOYING',
]);

const TAG_REF = /^refs\/tags\/./;

/**
 * A repository's identity: host/owner/name, lower-case, without a scheme, user, `.git` or
 * trailing slash (`https://GitHub.com/Org/Repo.git/` and `git@github.com:org/repo` are one).
 */
export function repositoryKey(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^[^@/]+@/, '')
    .replace(/^([^/:]+):(?!\d+\/)/, '$1/')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
}

/** A push (pushCommit): `ref` of the repository `repoKey` (undefined: of every one) is `sha`. */
interface Push {
  repoKey: string | undefined;
  ref: string;
  sha: string;
  at: number;
}

export interface StoredRevision {
  id: string;
  deploymentId: string;
  source: SourceKind;
  createdAt: number;
  stepMs: number;
  /** RevisionScript.phaseMs. */
  phaseMs?: number[];
  plan: RevisionPlan;
  /** Set when a newer revision arrived while this one was still pending: it is then SKIPPED. */
  supersededAt?: number;
  /** GETs of this revision still to be answered 404 (read-after-write lag). */
  hiddenReads: number;
  /** RevisionScript.stepEachRead: the GETs answered so far, one status each. */
  stepsRead?: number;
  /** The deployment's source_config when the revision was made. */
  sourceConfig: SourceConfig;
  /** Without repo_commit_sha, which commitOf() decides. */
  sourceRevisionConfig: SourceRevisionConfig;
  /** The commit, fixed when the revision was made (containers, and without buildsRefAtBuildTime). */
  fixedCommit?: string;
  /** With buildsRefAtBuildTime: the head of its ref when it entered BUILDING, once seen. */
  builtCommit?: string;
  /** Made by the service itself (a push build, startRevision), not by an API request. */
  madeBy?: ServiceMadeRevision['cause'];
  /**
   * pushesQueueBehindBuild: the build running when this push build was made; this one stays
   * QUEUED until that one has ended.
   */
  queuedBehind?: StoredRevision;
  /** When queuedBehind ended, decided the first time it is seen ended. */
  queueEndedAt?: number;
  /** Overrides StoreSettings.revisionsListedAfterMs for this revision. */
  listedAfterMs?: number;
  /** documentedRedeploy: when each redeploy of it finishes (its updated_at moves then). */
  redeployFinishes?: number[];
  /** The lines of its build log and deploy log (revealed as the revision moves; logs.ts). */
  buildLog: string[];
  deployLog: string[];
  /** The failure's status_message, only when the script gave one (production sends none). */
  statusMessage?: string;
  /** RevisionScript outcome 'deploy-fail-once': a redeploy of it is DEPLOYED. */
  failsOnce?: boolean;
}

export interface StoredDeployment {
  id: string;
  /** null: made by an agent builder, outside this API (known-behaviour.md). */
  name: string | null;
  source: SourceKind;
  sourceConfig: SourceConfig;
  secrets: Secret[];
  createdAt: number;
  updatedAt: number;
  /** Oldest first; the last one is latest_revision_id. */
  revisions: StoredRevision[];
  deletedAt?: number;
  /** The DELETE asked for the tracing project named like the deployment to go too. */
  deleteTracingProject?: boolean;
  /** GETs of this deployment still to be answered 404 (read-after-write lag). */
  hiddenReads: number;
}

/**
 * The resolved options (options.ts), with what the emulator itself decides for the store: the
 * clock itself (the option only names its kind) and the URL of an application.
 */
export type StoreSettings = Omit<ResolvedOptions, 'clock'> & {
  clock: EmulatorClock;
  /** The URL the server fills into source_config.custom_url of a hosted_repo deployment. */
  appUrlFor: (name: string) => string;
};

/** A stable, commit-like sha, so that tests can predict it from what was deployed. */
export function fakeCommitSha(config: SourceRevisionConfig): string {
  const basis = config.repo_ref ?? config.image_uri ?? '';
  return createHash('sha1').update(basis).digest('hex');
}

/**
 * Whether a PATCH makes a revision (known-behaviour.md): it sets repo_ref, graph_config_path,
 * image_uri, resource_spec or a non-empty secrets list (an empty one means "unchanged"). A PATCH
 * of the mutable fields only (build_on_push, custom_url) makes none.
 */
export function patchMakesRevision(patch: PatchDeploymentRequest): boolean {
  const revisionConfig = patch.source_revision_config ?? {};
  return (
    revisionConfig.repo_ref !== undefined ||
    revisionConfig.graph_config_path !== undefined ||
    revisionConfig.image_uri !== undefined ||
    patch.source_config?.resource_spec !== undefined ||
    (patch.secrets?.length ?? 0) > 0
  );
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, each]) => each !== undefined)) as T;
}

export class DeploymentStore {
  private readonly settings: StoreSettings;
  private readonly byId = new Map<string, StoredDeployment>();
  /** Tracing projects, by name: one is created with each deployment, and outlives it by default. */
  private readonly tracing = new Set<string>();
  private readonly revisionScripts = new Map<string, RevisionScript[]>();
  /** Every push (pushCommit), oldest first: what each ref of each repository pointed at when. */
  private pushes: Push[] = [];
  /** The revisions the service made by itself, oldest first. */
  private serviceMade: ServiceMadeRevision[] = [];

  constructor(settings: StoreSettings) {
    this.settings = settings;
  }

  /** Whether revision answers carry `deployment_id`. */
  get revisionsNameDeployment(): boolean {
    return this.settings.revisionsNameDeployment;
  }

  /** Whether revision answers carry `source_config`. */
  get revisionsShowSourceConfig(): boolean {
    return this.settings.revisionsShowSourceConfig;
  }

  /** How answers show secrets: real values (the default, as production), names, or placeholders. */
  get secretsInAnswers(): 'names' | 'values' | 'placeholders' {
    return this.settings.secretsInAnswers;
  }

  /** Whether answers carry install_command and build_command. */
  get echoesCommands(): boolean {
    return this.settings.echoesCommands;
  }

  /**
   * A secret set outside the API (in the UI): stored with the deployment's others, replacing
   * one of the same name; no revision is made. Throws for an unknown id.
   */
  setSecretInUi(deploymentId: string, secret: Secret): void {
    const deployment = this.byId.get(deploymentId);
    if (deployment === undefined) throw new Error(`no deployment ${deploymentId}`);
    deployment.secrets = [
      ...deployment.secrets.filter((stored) => stored.name !== secret.name),
      { ...secret },
    ];
  }

  /** The tier answered for container deployments, if the server reports one. */
  get containerTier(): string | undefined {
    return this.settings.containerTier;
  }

  /** Whether answers carry source_config.deployment_type. */
  get answersDeploymentType(): boolean {
    return this.settings.answersDeploymentType;
  }

  private now(): number {
    return this.settings.clock.now();
  }

  /** A deleted deployment stays (AWAITING_DELETE) for deleteAfterMs, then is gone for good. */
  private forgetDeleted(): void {
    const now = this.now();
    for (const [id, deployment] of this.byId) {
      if (
        deployment.deletedAt !== undefined &&
        now >= deployment.deletedAt + this.settings.deleteAfterMs
      ) {
        this.byId.delete(id);
        if (deployment.deleteTracingProject && deployment.name !== null) {
          this.tracing.delete(deployment.name);
        }
      }
    }
  }

  all(): StoredDeployment[] {
    this.forgetDeleted();
    return [...this.byId.values()];
  }

  find(id: string): StoredDeployment | undefined {
    this.forgetDeleted();
    return this.byId.get(id);
  }

  /** A deployment being deleted still holds its name until it is gone. */
  findByName(name: string): StoredDeployment | undefined {
    return this.all().find((deployment) => deployment.name === name);
  }

  isDeleting(deployment: StoredDeployment): boolean {
    return deployment.deletedAt !== undefined;
  }

  /**
   * A deleted deployment is AWAITING_DELETE for the first half of deleteAfterMs, then
   * AWAITING_FINAL_DELETE until it is gone (known-behaviour.md).
   */
  deploymentStatus(deployment: StoredDeployment): string {
    if (deployment.deletedAt === undefined) return 'READY';
    const elapsed = this.now() - deployment.deletedAt;
    return elapsed * 2 < this.settings.deleteAfterMs ? 'AWAITING_DELETE' : 'AWAITING_FINAL_DELETE';
  }

  /**
   * Whether a tracing project of that name exists. One kept by a delete without
   * delete_tracing_project=true holds the name: a create of it is refused (known-behaviour.md).
   */
  hasTracingProject(name: string): boolean {
    this.forgetDeleted();
    return this.tracing.has(name);
  }

  /** The names of the tracing projects that exist. */
  tracingProjects(): string[] {
    this.forgetDeleted();
    return [...this.tracing];
  }

  /** `nameless`: stored with a null name, as a deployment an agent builder made. */
  create(request: CreateDeploymentRequest, nameless = false): StoredDeployment {
    const now = this.now();
    const sourceConfig = withoutUndefined({ ...request.source_config });
    if (request.source !== 'external_container') {
      // The server owns the URL of every deployment but a self-hosted container's.
      sourceConfig.custom_url = this.settings.appUrlFor(request.name);
    }
    if (request.source === 'hosted_repo') {
      // Assumed: the server's default tier.
      sourceConfig.deployment_type ??= DEFAULT_DEPLOYMENT_TYPE;
    }
    if (!nameless) this.tracing.add(request.name);
    const deployment: StoredDeployment = {
      id: randomUUID(),
      name: nameless ? null : request.name,
      source: request.source,
      sourceConfig,
      secrets: request.secrets.map((secret) => ({ ...secret })),
      createdAt: now,
      updatedAt: now,
      revisions: [],
      hiddenReads: this.settings.notFoundAfterWrite,
    };
    this.byId.set(deployment.id, deployment);
    this.addRevision(deployment, request.source_revision_config);
    return deployment;
  }

  /** Whether the revisions list shows `revision` yet (EmulatorOptions.revisionsListedAfterMs). */
  isListed(revision: StoredRevision): boolean {
    const lag = revision.listedAfterMs ?? this.settings.revisionsListedAfterMs;
    return this.now() >= revision.createdAt + lag;
  }

  /** Applies a PATCH, building a new revision when it changes code or secrets; returns it. */
  patch(deployment: StoredDeployment, patch: PatchDeploymentRequest): StoredRevision | undefined {
    if (patch.source_config !== undefined) {
      // A shallow merge: each given member (resource_spec included) replaces the old one whole.
      Object.assign(deployment.sourceConfig, withoutUndefined(patch.source_config));
    }
    if (patch.secrets !== undefined && patch.secrets.length > 0) {
      // Assumed: the given list is the new set (the real service documents only "empty = keep").
      deployment.secrets = patch.secrets.map((secret) => ({ ...secret }));
    }
    deployment.updatedAt = this.now();
    if (!patchMakesRevision(patch)) return undefined;
    return this.addRevisionOver(deployment, patch.source_revision_config);
  }

  /**
   * POST .../revisions: always a new revision. Its source_config fields and secrets change the
   * deployment as a PATCH's would; its source_revision_config goes over the latest revision's.
   */
  makeRevision(deployment: StoredDeployment, request: CreateRevisionRequest): StoredRevision {
    if (request.source_config !== undefined) {
      Object.assign(deployment.sourceConfig, withoutUndefined(request.source_config));
    }
    if (request.secrets !== undefined && request.secrets.length > 0) {
      deployment.secrets = request.secrets.map((secret) => ({ ...secret }));
    }
    deployment.updatedAt = this.now();
    return this.addRevisionOver(deployment, request.source_revision_config);
  }

  private addRevisionOver(
    deployment: StoredDeployment,
    config: SourceRevisionConfig | undefined,
    scripted?: RevisionScript,
    queuedBehind?: StoredRevision,
  ): StoredRevision {
    const latest = this.latestRevision(deployment);
    return this.addRevision(
      deployment,
      { ...latest?.sourceRevisionConfig, ...withoutUndefined(config ?? {}) },
      deployment.sourceConfig,
      scripted,
      queuedBehind,
    );
  }

  /**
   * A revision the service makes by itself (Emulator.startRevision: as "New Revision" in the UI),
   * of the latest revision's source; `script` (else the next queued one) says how it goes.
   */
  startRevision(deployment: StoredDeployment, script?: RevisionScript): StoredRevision {
    const revision = this.addRevisionOver(deployment, undefined, script);
    this.recordServiceMade(deployment, revision, { cause: 'start', at: revision.createdAt });
    return revision;
  }

  private recordServiceMade(
    deployment: StoredDeployment,
    revision: StoredRevision,
    made: Omit<ServiceMadeRevision, 'deploymentId' | 'revisionId'>,
  ): void {
    revision.madeBy = made.cause;
    deployment.updatedAt = made.at;
    this.serviceMade.push({ ...made, deploymentId: deployment.id, revisionId: revision.id });
  }

  /** The revisions the service made by itself, oldest first (copies). */
  serviceMadeRevisions(): ServiceMadeRevision[] {
    return this.serviceMade.map((made) => ({ ...made }));
  }

  /**
   * documentedRedeploy: deploys `revision` (the latest, DEPLOYED) again, without a rebuild or a
   * new revision; it stays DEPLOYED, and its updated_at moves when the redeploy finishes.
   */
  redeployAgain(deployment: StoredDeployment, revision: StoredRevision): void {
    const now = this.now();
    deployment.updatedAt = now;
    revision.redeployFinishes = [...(revision.redeployFinishes ?? []), now + 2 * revision.stepMs];
  }

  /** When the revision last changed: its status, or a redeploy that has finished since. */
  revisionUpdatedAt(revision: StoredRevision, state: RevisionState): number {
    const now = this.now();
    const finished = (revision.redeployFinishes ?? []).filter((at) => at <= now);
    return Math.max(state.since, ...finished);
  }

  /** The latest revision when it is in progress (IN_PROGRESS_STATUSES), else undefined. */
  revisionInProgress(deployment: StoredDeployment): StoredRevision | undefined {
    const latest = this.latestRevision(deployment);
    if (latest === undefined) return undefined;
    return IN_PROGRESS_STATUSES.has(this.revisionState(latest).status) ? latest : undefined;
  }

  /**
   * A new revision that ships `revision` again: its code, and its build, made with the
   * source_config it was built with (not the deployment's current one, which may have changed
   * since: a rollback to an older revision serves what that revision served).
   */
  redeploy(deployment: StoredDeployment, revision: StoredRevision): StoredRevision {
    deployment.updatedAt = this.now();
    if (this.settings.redeploysInPlace && revision.deploymentId === deployment.id) {
      return this.restart(deployment, revision);
    }
    return this.addRevision(
      deployment,
      { ...revision.sourceRevisionConfig },
      revision.sourceConfig,
      // What failed once for the platform's sake deploys when redeployed; no queued script.
      revision.failsOnce ? { outcome: 'deploy' } : undefined,
    );
  }

  markDeleted(deployment: StoredDeployment, deleteTracingProject: boolean): void {
    deployment.deleteTracingProject =
      (deployment.deleteTracingProject ?? false) || deleteTracingProject;
    deployment.deletedAt ??= this.now();
    deployment.updatedAt = this.now();
  }

  latestRevision(deployment: StoredDeployment): StoredRevision | undefined {
    return deployment.revisions.at(-1);
  }

  revision(deployment: StoredDeployment, revisionId: string): StoredRevision | undefined {
    const own = deployment.revisions.find((revision) => revision.id === revisionId);
    if (own !== undefined || !this.settings.revisionIdsGlobal) return own;
    for (const other of this.byId.values()) {
      const found = other.revisions.find((revision) => revision.id === revisionId);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  revisionState(revision: StoredRevision): RevisionState {
    const now = this.now();
    if (revision.stepsRead === undefined) {
      return revisionStateAt(
        revision.plan,
        revision.createdAt,
        revision.stepMs,
        now,
        revision.supersededAt,
        this.phaseDurations(revision),
      );
    }
    if (revision.supersededAt !== undefined && now >= revision.supersededAt) {
      return { status: 'SKIPPED', since: revision.supersededAt };
    }
    // One step per read: as if each read came 1 ms after the previous one.
    return revisionStateAt(
      revision.plan,
      revision.createdAt,
      1,
      revision.createdAt + revision.stepsRead,
    );
  }

  /**
   * Counts a GET of the revision: with stepEachRead, the next read shows the next status (a push
   * build queued behind a running build goes no further than QUEUED until that build has ended).
   */
  countRead(revision: StoredRevision): void {
    if (revision.stepsRead === undefined) return;
    const queued = revision.plan.phases.indexOf('QUEUED');
    if (queued >= 0 && revision.stepsRead >= queued && this.waitsInQueue(revision)) return;
    revision.stepsRead += 1;
  }

  /** The newest revision that is DEPLOYED now: what the deployment actually serves. */
  activeRevision(deployment: StoredDeployment): StoredRevision | undefined {
    return deployment.revisions.findLast(
      (revision) => this.revisionState(revision).status === 'DEPLOYED',
    );
  }

  scriptNextRevision(name: string, script: RevisionScript): void {
    const queue = this.revisionScripts.get(name) ?? [];
    queue.push(script);
    this.revisionScripts.set(name, queue);
  }

  /**
   * A push: `ref` of the repository `repoUrl` (of every repository when undefined) now points at
   * `sha`, and later builds of it carry that commit. With buildsOnPush, every hosted_repo
   * deployment of that repository and branch whose build_on_push is true gets a new revision.
   */
  pushCommit(ref: string, sha: string, repoUrl?: string): ServiceMadeRevision[] {
    const at = this.now();
    const repoKey = repoUrl === undefined ? undefined : repositoryKey(repoUrl);
    this.pushes.push({ repoKey, ref, sha, at });
    if (!this.settings.buildsOnPush || TAG_REF.test(ref)) return [];
    const made: ServiceMadeRevision[] = [];
    for (const deployment of this.all()) {
      if (!this.buildsPushTo(deployment, ref, repoKey)) continue;
      const running = this.settings.pushesQueueBehindBuild
        ? this.runningBuild(deployment)
        : undefined;
      const revision = this.addRevisionOver(deployment, undefined, undefined, running);
      const record = {
        cause: 'push' as const,
        ref,
        sha,
        at,
        ...(repoUrl ? { repoUrl } : {}),
        ...(running ? { queuedBehind: running.id } : {}),
      };
      this.recordServiceMade(deployment, revision, record);
      made.push({ ...record, deploymentId: deployment.id, revisionId: revision.id });
    }
    return made;
  }

  /** The deployment's build running now: a pending revision that has entered BUILDING. */
  private runningBuild(deployment: StoredDeployment): StoredRevision | undefined {
    return deployment.revisions.findLast(
      (revision) =>
        isPending(this.revisionState(revision), revision.plan) &&
        this.buildingEnteredAt(revision) !== undefined,
    );
  }

  /**
   * When the build a queued push build waits behind ended (undefined while it runs, or when the
   * revision waits behind none).
   */
  private queueEnd(revision: StoredRevision): number | undefined {
    if (revision.queueEndedAt !== undefined || revision.queuedBehind === undefined) {
      return revision.queueEndedAt;
    }
    const ahead = revision.queuedBehind;
    const state = this.revisionState(ahead);
    if (isPending(state, ahead.plan)) return undefined;
    revision.queueEndedAt = state.since;
    return revision.queueEndedAt;
  }

  /** Whether the revision still waits behind a running build. */
  private waitsInQueue(revision: StoredRevision): boolean {
    return revision.queuedBehind !== undefined && this.queueEnd(revision) === undefined;
  }

  /**
   * How long each phase of the revision lasts: its script's or one step each, and for a push
   * build queued behind a running build, QUEUED lasts until that build has ended (forever while
   * it runs).
   */
  private phaseDurations(revision: StoredRevision): readonly number[] | undefined {
    const queued = revision.plan.phases.indexOf('QUEUED');
    if (revision.queuedBehind === undefined || queued < 0) return revision.phaseMs;
    const durations = revision.plan.phases.map(
      (_, index) => revision.phaseMs?.[index] ?? revision.stepMs,
    );
    const queuedFrom = revision.createdAt + durations.slice(0, queued).reduce((a, b) => a + b, 0);
    const ended = this.queueEnd(revision);
    durations[queued] =
      ended === undefined
        ? Number.POSITIVE_INFINITY
        : Math.max(durations[queued] ?? revision.stepMs, ended - queuedFrom);
    return durations;
  }

  /** Whether a push to `ref` of `repoKey` (undefined: any) starts a build of `deployment`. */
  private buildsPushTo(
    deployment: StoredDeployment,
    ref: string,
    repoKey: string | undefined,
  ): boolean {
    if (deployment.source !== 'hosted_repo' || this.isDeleting(deployment)) return false;
    if (deployment.sourceConfig.build_on_push !== true) return false;
    if (this.latestRevision(deployment)?.sourceRevisionConfig.repo_ref !== ref) return false;
    return repoKey === undefined || this.repoKeyOf(deployment.sourceConfig) === repoKey;
  }

  private repoKeyOf(config: SourceConfig): string | undefined {
    return config.repo_url === undefined ? undefined : repositoryKey(config.repo_url);
  }

  /** The head of `config`'s ref in the repository `repoKey` at `at` (fakeCommitSha before a push). */
  private headAt(repoKey: string | undefined, config: SourceRevisionConfig, at: number): string {
    const ref = config.repo_ref;
    const push =
      ref === undefined
        ? undefined
        : this.pushes.findLast(
            (each) =>
              each.ref === ref &&
              each.at <= at &&
              (each.repoKey === undefined || each.repoKey === repoKey),
          );
    return push?.sha ?? fakeCommitSha(config);
  }

  /**
   * The revision's repo_commit_sha now: fixed when it was made, or (buildsRefAtBuildTime) the
   * head of its ref when it entered BUILDING, undefined until then and when it never builds.
   */
  commitOf(revision: StoredRevision): string | undefined {
    if (revision.fixedCommit !== undefined) return revision.fixedCommit;
    if (revision.builtCommit !== undefined) return revision.builtCommit;
    const at = this.buildingEnteredAt(revision);
    if (at === undefined) return undefined;
    const repoKey = this.repoKeyOf(revision.sourceConfig);
    revision.builtCommit = this.headAt(repoKey, revision.sourceRevisionConfig, at);
    return revision.builtCommit;
  }

  /** The revision's source_revision_config as answered, with its commit when known. */
  revisionConfigAnswer(revision: StoredRevision): AnsweredRevisionConfig {
    const commit = this.commitOf(revision);
    return {
      ...revision.sourceRevisionConfig,
      ...(commit === undefined ? {} : { repo_commit_sha: commit }),
    };
  }

  /** When the revision entered BUILDING, if it has by now (and was not skipped before). */
  private buildingEnteredAt(revision: StoredRevision): number | undefined {
    const building = revision.plan.phases.indexOf('BUILDING');
    if (building < 0) return undefined;
    const now = this.now();
    if (revision.stepsRead !== undefined) {
      // One status per read: it entered BUILDING at the read that shows it.
      if (revision.supersededAt !== undefined) return undefined;
      return revision.stepsRead >= building ? now : undefined;
    }
    const durations = this.phaseDurations(revision);
    let at = revision.createdAt;
    for (let index = 0; index < building; index++) {
      at += durations?.[index] ?? revision.stepMs;
    }
    if (now < at) return undefined;
    if (revision.supersededAt !== undefined && revision.supersededAt <= at) return undefined;
    return at;
  }

  /** The next script queued for the deployment's name (a deployment without one has none). */
  private nextScript(deployment: StoredDeployment): RevisionScript | undefined {
    return deployment.name === null
      ? undefined
      : this.revisionScripts.get(deployment.name)?.shift();
  }

  reset(): void {
    this.pushes = [];
    this.serviceMade = [];
    this.byId.clear();
    this.tracing.clear();
    this.revisionScripts.clear();
  }

  /**
   * EmulatorOptions.redeploysInPlace: the revision goes again from its deploy phase (its image is
   * built), as the next script says (a deploy-fail-once revision deploys), and becomes the latest.
   */
  private restart(deployment: StoredDeployment, revision: StoredRevision): StoredRevision {
    // The commit it built stays (its deploy phase only runs again): decided before the plan changes.
    this.commitOf(revision);
    const now = this.now();
    this.supersedePending(deployment, now);
    const script: RevisionScript | undefined = revision.failsOnce
      ? { outcome: 'deploy' }
      : this.nextScript(deployment);
    const plan = planFor(script);
    const deployPhase = plan.phases.indexOf('AWAITING_DEPLOY');
    revision.plan = deployPhase < 0 ? plan : { ...plan, phases: plan.phases.slice(deployPhase) };
    revision.createdAt = now;
    revision.stepMs = script?.stepMs ?? this.settings.stepMs;
    revision.hiddenReads = this.settings.notFoundAfterWrite;
    revision.deployLog = script?.deployLog ?? defaultDeployLog(script?.outcome);
    delete revision.supersededAt;
    delete revision.phaseMs;
    delete revision.queuedBehind;
    delete revision.queueEndedAt;
    delete revision.statusMessage;
    delete revision.failsOnce;
    if (script?.stepEachRead) revision.stepsRead = 0;
    else delete revision.stepsRead;
    if (script?.statusMessage !== undefined) revision.statusMessage = script.statusMessage;
    if (script?.outcome === 'deploy-fail-once') revision.failsOnce = true;
    deployment.revisions = [...deployment.revisions.filter((each) => each !== revision), revision];
    return revision;
  }

  /**
   * A newer revision supersedes every one still pending (they end SKIPPED), but the running
   * build `spared` (pushesQueueBehindBuild), which goes on to its end.
   */
  private supersedePending(
    deployment: StoredDeployment,
    now: number,
    spared?: StoredRevision,
  ): void {
    for (const older of deployment.revisions) {
      if (older === spared) continue;
      if (older.supersededAt === undefined && isPending(this.revisionState(older), older.plan)) {
        older.supersededAt = now;
      }
    }
  }

  private addRevision(
    deployment: StoredDeployment,
    config: SourceRevisionConfig,
    builtWith: SourceConfig = deployment.sourceConfig,
    scripted?: RevisionScript,
    queuedBehind?: StoredRevision,
  ): StoredRevision {
    const now = this.now();
    this.supersedePending(deployment, now, queuedBehind);
    const script = scripted ?? this.nextScript(deployment);
    const revisionConfig = withoutUndefined(config);
    const revision: StoredRevision = {
      id: randomUUID(),
      deploymentId: deployment.id,
      source: deployment.source,
      createdAt: now,
      stepMs: script?.stepMs ?? this.settings.stepMs,
      ...(script?.phaseMs ? { phaseMs: [...script.phaseMs] } : {}),
      plan: planFor(script),
      sourceConfig: structuredClone(builtWith),
      sourceRevisionConfig: revisionConfig,
      ...(this.settings.buildsRefAtBuildTime && deployment.source === 'hosted_repo'
        ? {}
        : {
            fixedCommit: this.headAt(this.repoKeyOf(builtWith), revisionConfig, now),
          }),
      hiddenReads: this.settings.notFoundAfterWrite,
      ...(queuedBehind ? { queuedBehind } : {}),
      ...(script?.stepEachRead ? { stepsRead: 0 } : {}),
      buildLog: script?.buildLog ?? defaultBuildLog(script?.outcome),
      deployLog: script?.deployLog ?? defaultDeployLog(script?.outcome),
      ...(script?.statusMessage === undefined ? {} : { statusMessage: script.statusMessage }),
      ...(script?.outcome === 'deploy-fail-once' ? { failsOnce: true } : {}),
    };
    deployment.revisions.push(revision);
    return revision;
  }
}

/** Assumed: the tier a hosted_repo deployment gets when the create names none. */
export const DEFAULT_DEPLOYMENT_TYPE = 'dev';

function defaultBuildLog(outcome: RevisionScript['outcome'] | undefined): string[] {
  const lines = ['Installing dependencies', 'Building the image', 'Pushing the image'];
  return outcome === 'build-fail'
    ? [...lines.slice(0, 2), 'error: the build exited with code 1']
    : lines;
}

function defaultDeployLog(outcome: RevisionScript['outcome'] | undefined): string[] {
  if (outcome === 'create-fail') return ['error: the revision could not be created'];
  const lines = ['Starting the server', 'Waiting for the health check'];
  if (outcome === 'deploy-fail-once') {
    // The message users report when the platform's cluster is briefly out (issue #30).
    return [...lines, 'Timeout: Deployment is not ready after 300 seconds.'];
  }
  return outcome === 'deploy-fail'
    ? [...lines, 'error: the health check failed']
    : [...lines, 'Serving'];
}
