/**
 * Is the checkout the very source the control plane will build? Then a graph configuration
 * missing from it will surely be missing from the build too, and is an input error before any
 * write; otherwise the step can only say why it cannot be sure. Pure: git's answers come in as
 * plain values.
 */

/** What git tells of the checkout folder; a field is undefined when git could not tell it. */
export interface CheckoutFacts {
  /** Why git could not read the folder, when it could not (not a repository, no git, ...). */
  unreadable?: string;
  /** The URL of its `origin` remote. */
  origin?: string;
  /** The commit checked out. */
  head?: string;
  /** The second parent of that commit: a pull request's head, when it is the merge commit. */
  secondParent?: string;
}

/** What this deploy builds, and what the run is for. */
export interface DeployedSource {
  /** `repo-url`, when given. */
  repoUrl?: string | undefined;
  /** The ref sent (`repo-ref`, or the workflow's own by default). */
  repoRef?: string | undefined;
  /** The workflow's own ref and commit (the PR head on pull requests). */
  workflowRef?: string | undefined;
  workflowCommit?: string | undefined;
  /** GITHUB_REPOSITORY (`owner/name`) and the GitHub server's URL. */
  runRepository?: string | undefined;
  serverUrl: string;
}

type CheckoutVerdict = { deployed: true; commit: string } | { deployed: false; why: string };

/** `host/owner/name` of a repository URL (https, ssh or scp-like), lower case; else undefined. */
export function repositoryKey(url: string): string | undefined {
  const text = url.trim();
  const scpLike = /^[\w.-]+@([\w.-]+):(.+)$/.exec(text);
  let host: string;
  let path: string;
  if (scpLike?.[1] && scpLike[2]) {
    host = scpLike[1];
    path = scpLike[2];
  } else if (URL.canParse(text)) {
    const parsed = new URL(text);
    host = parsed.host;
    path = parsed.pathname;
  } else {
    return undefined;
  }
  const name = path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  return name === '' ? undefined : `${host}/${name}`.toLowerCase();
}

const short = (commit: string): string => commit.slice(0, 7);

export function judgeCheckout(checkout: CheckoutFacts, deployed: DeployedSource): CheckoutVerdict {
  if (checkout.unreadable !== undefined) return { deployed: false, why: checkout.unreadable };
  const wanted = deployed.repoUrl === undefined ? undefined : repositoryKey(deployed.repoUrl);
  if (wanted === undefined) {
    return {
      deployed: false,
      why: "'repo-url' is empty, so the action cannot tell whether the checkout is the repository the control plane builds",
    };
  }
  const serverHost = URL.canParse(deployed.serverUrl) ? new URL(deployed.serverUrl).host : '';
  const runKey =
    deployed.runRepository === undefined
      ? undefined
      : `${serverHost}/${deployed.runRepository}`.toLowerCase();
  // The checkout's own origin says which repository it is; without one, the run's repository.
  const originKey = checkout.origin === undefined ? undefined : repositoryKey(checkout.origin);
  const seen = originKey ?? runKey;
  if (seen !== wanted) {
    return {
      deployed: false,
      why: `the checkout is of ${seen ?? 'an unknown repository'}, and the control plane builds ${wanted} ('repo-url')`,
    };
  }
  const { workflowRef, workflowCommit } = deployed;
  if (workflowCommit === undefined || workflowRef === undefined) {
    return { deployed: false, why: 'the commit this run is for is unknown (no GITHUB_SHA)' };
  }
  if (deployed.repoRef !== workflowRef) {
    return {
      deployed: false,
      why: `'repo-ref' is ${deployed.repoRef ?? '(empty)'}, not ${workflowRef}, the ref this run is for, so the control plane builds another commit than this run's`,
    };
  }
  if (checkout.head === workflowCommit || checkout.secondParent === workflowCommit) {
    return { deployed: true, commit: workflowCommit };
  }
  return {
    deployed: false,
    why: `the checkout is at commit ${checkout.head === undefined ? '(unknown)' : short(checkout.head)}, and this run deploys ${short(workflowCommit)} of ${workflowRef}`,
  };
}

/** The workflow's own repository as a repository key, when the run names one. */
export function runRepositoryKey(
  serverUrl: string,
  runRepository: string | undefined,
): string | undefined {
  if (runRepository === undefined || !/^[^/\s]+\/[^/\s]+$/.test(runRepository)) return undefined;
  return repositoryKey(`${serverUrl.replace(/\/+$/, '')}/${runRepository}`);
}

/**
 * Whether `repoUrl` is the workflow's own repository (`owner/name` on `serverUrl`): the one whose
 * branches the run's token reads. An unknown URL counts as another repository.
 */
export function isWorkflowRepository(
  repoUrl: string | undefined,
  serverUrl: string,
  runRepository: string,
): boolean {
  const own = runRepositoryKey(serverUrl, runRepository);
  const key = repoUrl === undefined ? undefined : repositoryKey(repoUrl);
  return own !== undefined && key === own;
}
