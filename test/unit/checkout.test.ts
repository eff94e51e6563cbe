/**
 * judgeCheckout: a missing graph configuration is an input error only when the checkout is surely
 * the commit the control plane builds; otherwise the reason it cannot be sure, in words.
 */
import { describe, expect, it } from 'vitest';
import {
  type DeployedSource,
  isWorkflowRepository,
  judgeCheckout,
  repositoryKey,
} from '../../src/rules/checkout.ts';

const HEAD = '1'.repeat(40);
const PR_HEAD = '2'.repeat(40);
const PUSH: DeployedSource = {
  repoUrl: 'https://github.com/acme/agent',
  repoRef: 'main',
  workflowRef: 'main',
  workflowCommit: HEAD,
  runRepository: 'acme/agent',
  serverUrl: 'https://github.com',
};

describe('repositoryKey', () => {
  it('reads https, ssh and scp-like URLs alike', () => {
    for (const url of [
      'https://github.com/Acme/Agent',
      'https://github.com/acme/agent.git',
      'git@github.com:acme/agent.git',
      'ssh://git@github.com/acme/agent',
    ]) {
      expect(repositoryKey(url)).toBe('github.com/acme/agent');
    }
    expect(repositoryKey('not a url')).toBeUndefined();
  });
});

describe('judgeCheckout', () => {
  it('is sure of a push checkout of repo-url at the run commit', () => {
    const facts = { origin: 'https://github.com/acme/agent', head: HEAD };
    expect(judgeCheckout(facts, PUSH)).toEqual({ deployed: true, commit: HEAD });
  });

  it("is sure of a pull request's merge commit whose second parent is the head deployed", () => {
    const facts = {
      origin: 'https://github.com/acme/agent',
      head: '3'.repeat(40),
      secondParent: PR_HEAD,
    };
    const pr = { ...PUSH, repoRef: 'feature', workflowRef: 'feature', workflowCommit: PR_HEAD };
    expect(judgeCheckout(facts, pr)).toEqual({ deployed: true, commit: PR_HEAD });
  });

  it('takes the run repository when the checkout has no origin', () => {
    expect(judgeCheckout({ head: HEAD }, PUSH)).toEqual({ deployed: true, commit: HEAD });
  });

  it.each([
    [{ unreadable: 'there is no git checkout at /w' }, PUSH, 'there is no git checkout at /w'],
    [
      { origin: 'https://github.com/acme/other', head: HEAD },
      PUSH,
      "the checkout is of github.com/acme/other, and the control plane builds github.com/acme/agent ('repo-url')",
    ],
    [
      { origin: 'https://github.com/acme/agent', head: HEAD },
      { ...PUSH, repoRef: 'release' },
      "'repo-ref' is release, not main, the ref this run is for, so the control plane builds another commit than this run's",
    ],
    [
      { origin: 'https://github.com/acme/agent', head: '4'.repeat(40) },
      PUSH,
      'the checkout is at commit 4444444, and this run deploys 1111111 of main',
    ],
    [
      { head: HEAD },
      { ...PUSH, repoUrl: undefined },
      "'repo-url' is empty, so the action cannot tell whether the checkout is the repository the control plane builds",
    ],
  ])('is not sure, and says why: %#', (facts, deployed, why) => {
    expect(judgeCheckout(facts, deployed)).toEqual({ deployed: false, why });
  });
});

describe('isWorkflowRepository', () => {
  it.each<[string, string | undefined, string, string, boolean]>([
    [
      'the same, another spelling',
      'git@github.com:Acme/Agent.git',
      'https://github.com',
      'acme/agent',
      true,
    ],
    [
      'https with a trailing slash',
      'https://github.com/acme/agent/',
      'https://github.com',
      'acme/agent',
      true,
    ],
    [
      'another repository',
      'https://github.com/acme/deploy',
      'https://github.com',
      'acme/agent',
      false,
    ],
    [
      'another host (GHES run, github.com repo)',
      'https://github.com/acme/agent',
      'https://ghe.example.com',
      'acme/agent',
      false,
    ],
    ['no repo-url', undefined, 'https://github.com', 'acme/agent', false],
    ['not a URL', 'acme/agent', 'https://github.com', 'acme/agent', false],
    ['no server URL', 'https://github.com/acme/agent', '', 'acme/agent', false],
  ])('%s', (_name, repoUrl, serverUrl, repository, own) => {
    expect(isWorkflowRepository(repoUrl, serverUrl, repository)).toBe(own);
  });
});
