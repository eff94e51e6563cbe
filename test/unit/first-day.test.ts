/**
 * The messages a newcomer meets on a first day (issue 27): an empty api-key lists its likely
 * causes and what the run itself shows; a tag error names where the tag came from; a `/v2` at
 * the end of api-url is said, not dropped silently; no message ends in a dangling "env:".
 */
import { describe, expect, it } from 'vitest';
import type { Environment } from '../../src/api/proxy.ts';
import { emptyApiKeyMessage } from '../../src/settings/control-plane-inputs.ts';
import { readSettings } from '../../src/settings/inputs.ts';
import { parseSecrets } from '../../src/settings/secrets.ts';
import { tagOrigin } from '../../src/settings/source-inputs.ts';
import { apiUrlNote, parseApiUrl } from '../../src/settings/url.ts';

const DEPLOY = {
  'api-url': 'https://api.example.com',
  'api-key': 'key-123',
  name: 'my-agent',
  'repo-url': 'https://github.com/acme/agent',
  'graph-config-path': 'langgraph.json',
};
const TAG_RUN: Environment = {
  GITHUB_REF: 'refs/tags/v1.2.0',
  GITHUB_REF_NAME: 'v1.2.0',
  GITHUB_REF_TYPE: 'tag',
};

function messageOf(inputs: Record<string, string>, env: Environment, fork?: number): string {
  try {
    readSettings(
      (name) => inputs[name] ?? '',
      env,
      fork === undefined ? {} : { forkPullRequest: fork },
    );
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('readSettings accepted the inputs');
}

describe('an empty api-key', () => {
  const empty = { ...DEPLOY, 'api-key': '' };

  it('lists the likely causes and where to look', () => {
    const message = messageOf(empty, { GITHUB_REF_NAME: 'main', GITHUB_ACTOR: 'octocat' });
    expect(message).toContain("Input 'api-key' is required and empty.");
    expect(message).toContain(
      "the secret is an environment secret (of production, say) and this job names no 'environment:'",
    );
    expect(message).toContain('the secret is not set, or is named differently');
    expect(message).toContain('Settings > Secrets and variables > Actions');
    expect(message).not.toContain('Dependabot');
    expect(message).not.toContain('fork');
  });

  it("says so when the run is Dependabot's", () => {
    const message = messageOf(empty, { GITHUB_REF_NAME: 'main', GITHUB_ACTOR: 'dependabot[bot]' });
    expect(message).toContain(
      "This run is Dependabot's: GitHub gives it only Dependabot secrets. Add the key under Settings > Secrets and variables > Dependabot",
    );
  });

  it("says so when the run is a fork's pull request", () => {
    expect(emptyApiKeyMessage({ dependabot: false, forkPullRequest: 7 })).toContain(
      'This run is for pull request #7, which comes from a fork: GitHub gives the workflows of fork pull requests no secrets.',
    );
    expect(messageOf(empty, { GITHUB_HEAD_REF: 'feature' }, 7)).toContain(
      '#7, which comes from a fork',
    );
  });
});

describe('build-on-push with a tag', () => {
  it("on a tag run without repo-ref, blames the run's tag, not repo-ref", () => {
    const message = messageOf({ ...DEPLOY, 'build-on-push': 'true' }, TAG_RUN);
    expect(message).toBe(
      "Input 'build-on-push' is true, but 'repo-ref' is empty, so the tag is the one this run is for (refs/tags/v1.2.0, from GITHUB_REF): a tag never moves, so there is nothing to build on push, and the control plane refuses it. Remove 'build-on-push' (it is sent as false with a tag), or deploy a branch ('repo-ref: main').",
    );
  });

  it('names repo-ref when it was written, by its bare name or in full', () => {
    expect(tagOrigin('v1.2.0', TAG_RUN)).toBe(
      "'repo-ref' is v1.2.0, this run's own tag, sent as refs/tags/v1.2.0",
    );
    expect(tagOrigin('refs/tags/v1.0.0', TAG_RUN)).toBe("'repo-ref' is the tag refs/tags/v1.0.0");
  });
});

describe('api-url ending in /v2', () => {
  it('is said, with the URL the requests go to', () => {
    const given = 'https://api.example.com/v2/';
    const parsed = parseApiUrl('api-url', given, { allowInsecureHttp: false });
    expect(parsed).toBe('https://api.example.com');
    expect(apiUrlNote(given, parsed)).toBe(
      "Input 'api-url' ends in /v2, which the action puts before every path itself: it uses https://api.example.com as the base URL (requests go to https://api.example.com/v2/...).",
    );
  });

  it('is not mentioned otherwise', () => {
    expect(apiUrlNote('https://api.example.com/', 'https://api.example.com')).toBeUndefined();
    expect(apiUrlNote('https://example.com/v2x', 'https://example.com/v2x')).toBeUndefined();
  });
});

describe('the secrets message', () => {
  it('ends in the fix, not in a dangling "env:"', () => {
    let message = '';
    try {
      parseSecrets('secrets', 'just some text', {});
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).toContain(
      `write NAME=value, or NAME alone to take the value from the variable of that name in the step's 'env:' (NAME: \${{ secrets.NAME }})`,
    );
    expect(message).not.toMatch(/env:\s*$/);
  });
});
