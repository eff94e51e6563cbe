/**
 * A bare `repo-ref` (`v1.2.0`) is sent as a branch name, but the control plane takes a tag only
 * by its full ref. So before a deploy sends anything, a bare name that is not the run's own ref
 * is looked up: among the checkout's tags and branches (git), then, when the checkout cannot
 * tell (actions/checkout fetches no tags by default), through the GitHub API if the token can
 * read the repository. A tag is sent as `refs/tags/<name>` (and build_on_push as false); a name
 * nobody could tell from a branch is sent as written, with a warning. A tag with
 * `build-on-push: true` is an input error (thrown).
 */
import { execFileSync } from 'node:child_process';
import { repositoryKey } from '../../rules/checkout.ts';
import { InputError } from '../../settings/input-error.ts';
import type { Settings } from '../../settings/inputs.ts';
import { buildOnPushWithTagMessage } from '../../settings/source-inputs.ts';
import type { CommandContext } from './command-context.ts';

const TAG_PREFIX = 'refs/tags/';

type Kind = 'tag' | 'branch' | undefined;

/** The context with `repo-ref` resolved: the same one when there was nothing to resolve. */
export async function withTagResolved(ctx: CommandContext): Promise<CommandContext> {
  const { settings, log } = ctx;
  const name = settings.revisionConfig.repo_ref;
  if (
    settings.source !== 'hosted_repo' ||
    name === undefined ||
    name.startsWith('refs/') ||
    name === ctx.workflow?.ref ||
    /^[0-9a-f]{40}$/.test(name)
  ) {
    return ctx;
  }
  const inCheckout = checkoutKind(settings.checkout.directory, name);
  const onGitHub = inCheckout === undefined ? await gitHubKind(ctx, name) : undefined;
  const kind = inCheckout ?? onGitHub?.kind;
  if (kind === 'branch') return ctx;
  if (kind === undefined) {
    log.warning(
      `'repo-ref' is ${name}, sent as a branch name: the action could not tell whether it is a branch or a tag (the checkout has neither of that name, and ${onGitHub?.why ?? 'GitHub was not asked'}). If it is a tag, write it in full: 'repo-ref: refs/tags/${name}'.`,
    );
    return ctx;
  }
  const seen = inCheckout === 'tag' ? "seen among the checkout's tags" : 'GitHub lists it';
  const origin = `'repo-ref' is ${name}, a tag of the repository (${seen})`;
  if (settings.sourceConfig.build_on_push === true) {
    throw new InputError('build-on-push', buildOnPushWithTagMessage(origin));
  }
  log.info(`${origin}: sent as ${TAG_PREFIX}${name}, the form the control plane takes a tag in.`);
  const resolved: Settings = {
    ...settings,
    sourceConfig: { ...settings.sourceConfig, build_on_push: false },
    revisionConfig: { ...settings.revisionConfig, repo_ref: `${TAG_PREFIX}${name}` },
  };
  return { ...ctx, settings: resolved };
}

/** What the checkout knows of `name`: a tag, a branch (local or origin's), or nothing. */
function checkoutKind(directory: string, name: string): Kind {
  const has = (ref: string): boolean => {
    try {
      execFileSync('git', ['-C', directory, 'show-ref', '--verify', '--quiet', ref], {
        stdio: 'ignore',
        timeout: 10_000,
      });
      return true;
    } catch {
      return false;
    }
  };
  if (has(`${TAG_PREFIX}${name}`)) return 'tag';
  if (has(`refs/heads/${name}`) || has(`refs/remotes/origin/${name}`)) return 'branch';
  return undefined;
}

/** What GitHub says of `name`, when `repo-url` is a repository of the run's GitHub. */
async function gitHubKind(
  ctx: CommandContext,
  name: string,
): Promise<{ kind: Kind; why?: string }> {
  const token = ctx.settings.github.token;
  const github = ctx.github;
  const repoUrl = ctx.settings.sourceConfig.repo_url;
  if (!token) return { kind: undefined, why: "'github-token' is empty" };
  if (github === undefined || repoUrl === undefined) {
    return { kind: undefined, why: "the repository ('repo-url') is unknown" };
  }
  const host = URL.canParse(github.serverUrl) ? new URL(github.serverUrl).host : '';
  const key = repositoryKey(repoUrl);
  const [, owner, repo, ...rest] = key?.split('/') ?? [];
  if (!key?.startsWith(`${host.toLowerCase()}/`) || !owner || !repo || rest.length > 0) {
    return { kind: undefined, why: `'repo-url' is not a repository of ${github.serverUrl}` };
  }
  const { isRepositoryTag } = await import('../../github/octokit-chunk.ts');
  const tag = await isRepositoryTag({
    token,
    apiUrl: github.apiUrl,
    owner,
    repo,
    name,
    log: ctx.log,
    limits: github.clientLimits,
  });
  if (tag === undefined) {
    return {
      kind: undefined,
      why: `'github-token' cannot read the tags of ${owner}/${repo} (it needs 'contents: read')`,
    };
  }
  return { kind: tag ? 'tag' : 'branch' };
}
