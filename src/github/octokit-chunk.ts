/**
 * The one lazy chunk of the GitHub side: every run that needs Octokit loads this module
 * (`await import`), never the modules below one by one. Each dynamic import is a chunk of its
 * own and ncc copies into each the small modules they share (octokit-client.ts, octokit.ts,
 * check-run-record.ts); through this one entry they are in dist/ once.
 */
export { readNewestRecord } from './check-run-record.ts';
export { compareCommits } from './compare.ts';
export { readPullRequestStates } from './pulls.ts';
export { GitHubReporting } from './reporting.ts';
export { isRepositoryTag } from './tags.ts';
