/** A git repository made in a test's workspace, as `actions/checkout` leaves one. */
import { execFileSync } from 'node:child_process';

/** Runs git in `dir` as a committer named ci; returns what it printed. */
export function gitIn(dir: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-C', dir, '-c', 'user.name=ci', '-c', 'user.email=ci@example.com', ...args],
    { encoding: 'utf8' },
  );
}

/** Makes `dir` (its files already written) a repository with one commit of them all. */
export function commitAll(dir: string): void {
  gitIn(dir, 'init', '--quiet');
  gitIn(dir, 'add', '.');
  gitIn(dir, 'commit', '--quiet', '-m', 'agent');
}
