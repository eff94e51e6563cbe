import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/api/redact.ts';
import { escapeMarkdown } from '../../src/report/markdown.ts';
import {
  type PrCommentContext,
  prCommentMarker,
  renderPrComment,
} from '../../src/report/pr-comment.ts';
import type { CommandReport, Outcome } from '../../src/report/types.ts';

const SHA = 'abcdef1234567890abcdef1234567890abcdef12';
const API_KEY = 'lsv2_sk_0123456789abcdef';
const SECRET_VALUE = 'hunter2-database-password';
const RUN_URL = 'https://github.com/acme/agents/actions/runs/5/attempts/1';
/** GitHub's limit on an issue comment body. */
const GITHUB_COMMENT_LIMIT = 65_536;

const context: PrCommentContext = {
  deploymentName: 'agent-pr-12',
  github: {
    owner: 'acme',
    repo: 'agents',
    sha: 'f'.repeat(40),
    serverUrl: 'https://github.com',
    runUrl: RUN_URL,
  },
};

function report(overrides: Partial<CommandReport> = {}): CommandReport {
  return {
    command: 'deploy',
    outcome: 'success',
    action: 'created',
    headline: 'Created deployment agent-pr-12; revision 3f2a is DEPLOYED',
    deployment: { id: 'dep-1', name: 'agent-pr-12', url: 'https://agent-pr-12.example.com' },
    revision: { id: 'rev-3f2a', status: 'DEPLOYED', commitSha: SHA },
    startedAt: Date.UTC(2025, 5, 1, 12, 0, 0),
    endedAt: Date.UTC(2025, 5, 1, 12, 14, 30),
    ...overrides,
  };
}

/** Lines of the body outside the marker and our own heading. */
function contentLines(body: string): string[] {
  return body.split('\n').slice(2);
}

describe('renderPrComment', () => {
  it('starts with the hidden marker of the deployment', () => {
    const body = renderPrComment(report(), context);
    expect(body.split('\n')[0]).toBe('<!-- deploy-action:agent-pr-12 -->');
    expect(body.startsWith(prCommentMarker('agent-pr-12'))).toBe(true);
  });

  it('shows status, URL, revision, commit, time and run link', () => {
    const body = renderPrComment(report(), context);
    expect(body).toContain('✅');
    expect(body).toContain('Succeeded');
    expect(body).toContain('(<https://agent-pr-12.example.com/>)');
    expect(body).toContain('`rev-3f2a`');
    expect(body).toContain('DEPLOYED');
    expect(body).toContain(`[\`abcdef1\`](<https://github.com/acme/agents/commit/${SHA}>)`);
    expect(body).toContain(escapeMarkdown('2025-06-01T12:14:30.000Z'));
    expect(body).toContain(`(<${RUN_URL}>)`);
  });

  it('falls back to the event sha and shows dashes for what is unknown', () => {
    const body = renderPrComment(
      report({ outcome: 'failure', deployment: undefined, revision: undefined }),
      context,
    );
    expect(body).toContain(`/commit/${'f'.repeat(40)}>`);
    expect(body).toContain('| ❌ Failed | — | — |');
  });

  it("never shows the run's commit as what a revision built, and links no other repository's", () => {
    const unknown = renderPrComment(
      report({ revision: { id: 'rev-3f2a', status: 'BUILDING' } }),
      context,
    );
    expect(unknown).not.toContain('f'.repeat(7));
    expect(unknown).toContain('| `rev-3f2a` BUILDING | — |');
    const other = renderPrComment(
      report({ builtCommit: { relation: 'not-compared', ownRepository: false } }),
      context,
    );
    expect(other).toContain('`abcdef1`');
    expect(other).not.toContain('/commit/');
  });

  it('prefers the run URL in the report', () => {
    const body = renderPrComment(
      report({ runUrl: 'https://github.com/acme/agents/actions/runs/99' }),
      context,
    );
    expect(body).toContain('(<https://github.com/acme/agents/actions/runs/99>)');
    expect(body).not.toContain(RUN_URL);
  });

  it.each([
    ['success', '✅', 'Succeeded'],
    ['warning', '⚠️', 'Needs attention'],
    ['failure', '❌', 'Failed'],
    ['timeout', '⏱️', 'Timed out'],
    ['cancelled', '🚫', 'Cancelled'],
    ['planned', '📝', 'Planned \\(dry run\\)'],
  ] as const)('labels the %s outcome', (outcome: Outcome, emoji, label) => {
    const body = renderPrComment(report({ outcome }), context);
    expect(body.split('\n')[1]).toContain(emoji);
    expect(body).toContain(`| ${emoji} ${label} |`);
  });

  it('shows the failure reason, the next step, the server message and the smoke test', () => {
    const body = renderPrComment(
      report({
        outcome: 'failure',
        revision: { id: 'rev-1', status: 'BUILD_FAILED', statusMessage: 'npm ERR code 1' },
        reason: 'The build failed',
        nextStep: 'Fix the build and push again',
        smokeTest: { result: 'failed', events: [], error: 'no end event', durationMs: 5 },
      }),
      context,
    );
    expect(body).toContain('**Reason:** The build failed');
    expect(body).toContain('**Next step:** Fix the build and push again');
    expect(body).toContain('**Server message:** npm ERR code 1');
    expect(body).toContain('**Smoke test:** failed: no end event');
  });

  it('keeps hostile server text inert', () => {
    const hostile =
      '</sub><img src=x onerror=alert(1)> | x |\n# Owned [click](javascript:alert(1)) @acme/admins #1 ![i](https://t.example/p.png)';
    const body = renderPrComment(
      report({
        outcome: 'failure',
        headline: hostile,
        reason: hostile,
        nextStep: hostile,
        revision: { id: 'rev-1', status: hostile, statusMessage: hostile },
        smokeTest: { result: 'failed', events: [], error: hostile, durationMs: 1 },
      }),
      context,
    );
    const content = contentLines(body).join('\n');
    expect(content).not.toContain('<img');
    expect(content).not.toMatch(/(?<!<\/?sub)<\/sub>(?!$)/m);
    expect(content).not.toContain('](javascript:');
    expect(content).not.toContain('![i]');
    expect(content).not.toMatch(/@acme/); // no mention: a break follows every @
    expect(content).not.toMatch(/(?<!\\)#1/); // no issue reference
    expect(contentLines(body).some((line) => line.startsWith('#'))).toBe(false);
    // The table stays a header, a divider and one row, each of five cells.
    const tableRows = body.split('\n').filter((line) => line.startsWith('| '));
    expect(tableRows).toHaveLength(3);
    for (const row of tableRows) expect(row.split(/(?<!\\)\|/)).toHaveLength(7);
  });

  it('cannot be closed early by a hostile deployment name', () => {
    const name = 'x --> <script>alert(1)</script> <!--';
    const firstLine = renderPrComment(report(), { ...context, deploymentName: name }).split(
      '\n',
    )[0];
    expect(firstLine).toMatch(/^<!-- deploy-action:[^<>]* -->$/);
    expect(firstLine?.match(/-->/g)).toHaveLength(1);
    expect(prCommentMarker(name)).not.toBe(prCommentMarker('x'));
  });

  it('never shows a secret of a report redacted by the one redaction path', () => {
    const redactor = new Redactor();
    redactor.addAlways(API_KEY);
    redactor.add(SECRET_VALUE);
    const redacted = redactor.cleanDeep(
      report({
        outcome: 'failure',
        headline: `failed with key ${API_KEY}`,
        reason: `env DB_PASSWORD=${SECRET_VALUE}`,
        nextStep: `retry with ${API_KEY}`,
        deployment: {
          id: 'dep-1',
          name: 'agent-pr-12',
          url: `https://agent-pr-12.example.com/?api_key=${API_KEY}`,
        },
        revision: { id: 'rev-1', status: 'BUILD_FAILED', statusMessage: `saw ${SECRET_VALUE}` },
      }),
    );
    const body = renderPrComment(redacted, context);
    expect(body).not.toContain(API_KEY);
    expect(body).not.toContain(SECRET_VALUE);
    expect(body).not.toContain('hunter2');
    expect(body).toContain('DB\\_PASSWORD\\=\\*\\*\\*');
  });

  it('drops credentials embedded in the deployment URL', () => {
    const body = renderPrComment(
      report({
        deployment: {
          id: 'd',
          name: 'agent-pr-12',
          url: 'https://admin:pa55word@agent.example.com',
        },
      }),
      context,
    );
    expect(body).toContain('(<https://agent.example.com/>)');
    expect(body).not.toContain('(<https://admin:pa55word@');
  });

  it('does not link a deployment URL that is not http(s)', () => {
    const body = renderPrComment(
      report({ deployment: { id: 'd', name: 'agent-pr-12', url: 'javascript:alert(1)' } }),
      context,
    );
    expect(body).not.toContain('](javascript');
    expect(body).not.toContain('(<javascript');
  });

  it('truncates long server text and stays far below the comment size limit', () => {
    const huge = 'y'.repeat(200_000);
    const body = renderPrComment(
      report({
        outcome: 'failure',
        headline: huge,
        reason: huge,
        nextStep: huge,
        deployment: { id: huge, name: 'agent-pr-12', url: `https://example.com/${huge}` },
        revision: {
          id: huge,
          status: huge,
          statusMessage: huge,
          commitSha: huge,
          supersededBy: huge,
        },
        smokeTest: { result: 'failed', events: [], error: huge, durationMs: 1 },
      }),
      context,
    );
    expect(body).toContain('more characters');
    expect(body.length).toBeLessThan(GITHUB_COMMENT_LIMIT / 4);
  });

  it('stays below the limit with every part at its largest in characters that escape the most', () => {
    // Each character below grows when escaped for Markdown or HTML; backtick runs lengthen fences.
    const hostile = '<&|*_[]`\\#@!'.repeat(20_000);
    const log = Array.from({ length: 60 }, () => hostile);
    const attempt = (n: number) => ({
      revisionId: `${hostile}${n}`,
      redeployOf: n === 0 ? undefined : hostile,
      status: hostile,
      timeline: [],
      logTail: log,
    });
    const body = renderPrComment(
      report({
        outcome: 'failure',
        headline: hostile,
        reason: hostile,
        nextStep: hostile,
        deployment: { id: hostile, name: 'agent-pr-12', url: `https://example.com/${hostile}` },
        revision: {
          id: hostile,
          status: hostile,
          statusMessage: hostile,
          commitSha: hostile,
          supersededBy: hostile,
        },
        failureLog: { kind: 'deploy', revisionId: hostile, lines: log },
        attempts: [0, 1, 2, 3].map(attempt),
        smokeTest: { result: 'failed', events: [], error: hostile, durationMs: 1 },
      }),
      context,
    );
    expect(body.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
  });
});

describe('renderPrComment: the failed stage log', () => {
  const failed = (lines: string[]) =>
    report({
      outcome: 'failure',
      revision: { id: 'rev-3f2a', status: 'BUILD_FAILED' },
      failureLog: { kind: 'build', revisionId: 'rev-3f2a', lines },
    });

  it('shows the lines collapsed, in a code block no line can close', () => {
    const lines = ['npm ci', '```', '````` </details> @octocat #12 <script>x</script>', 'exit 1'];
    const body = renderPrComment(failed(lines), context);
    const start = body.indexOf('<details><summary>Build log (last 4 lines)</summary>');
    expect(start).toBeGreaterThan(0);
    const block = body.slice(start).split('\n');
    // The fence is longer than any run of backticks in the lines.
    expect(block[2]).toBe('``````text');
    expect(block.slice(3, 7)).toEqual(lines);
    expect(block[7]).toBe('``````');
    expect(block[9]).toBe('</details>');
  });

  it('is bounded: 30 lines at most, each cut short', () => {
    const lines = Array.from({ length: 50 }, (_, index) => `${index} ${'x'.repeat(5000)}`);
    const body = renderPrComment(failed(lines), context);
    expect(body).toContain('(last 30 lines)');
    expect(body).not.toContain('\n19 x');
    expect(body).toContain('\n20 x');
    expect(body.length).toBeLessThan(20_000);
  });

  it('leaves it out when the log was not available', () => {
    const body = renderPrComment(
      report({
        outcome: 'failure',
        failureLog: { kind: 'deploy', revisionId: 'r', unavailable: 'no logs here' },
      }),
      context,
    );
    expect(body).not.toContain('<details>');
  });
});

describe('renderPrComment: deploy-retries attempts', () => {
  const attempts = report({
    headline: 'Created deployment agent-pr-12; revision r1 ended DEPLOY_FAILED, redeployed',
    revision: { id: 'r2', status: 'DEPLOYED' },
    attempts: [
      {
        revisionId: 'r1',
        status: 'DEPLOY_FAILED',
        timeline: [],
        logTail: ['line 1', 'line 2', 'line 3', 'line 4', '<b>line 5</b>', 'Timeout: not ready'],
      },
      { revisionId: 'r2', redeployOf: 'r1', status: 'DEPLOYED', timeline: [] },
    ],
  });

  it('lists each attempt with its status, and the end of its log with the reason last', () => {
    const body = renderPrComment(attempts, context);
    const start = body.indexOf('**Attempts**');
    expect(start).toBeGreaterThan(0);
    const section = body.slice(start).split('\n');
    expect(section[2]).toBe('1. `r1` `DEPLOY_FAILED`');
    expect(section[4]).toBe('   <details><summary>Log (last 5 lines)</summary>');
    expect(section.slice(6, 13)).toEqual([
      '   ```text',
      '   line 2',
      '   line 3',
      '   line 4',
      '   <b>line 5</b>',
      '   Timeout: not ready',
      '   ```',
    ]);
    expect(section[13]).toBe('');
    expect(section[14]).toBe('   </details>');
    // A blank line ends the HTML block before the next item.
    expect(section[15]).toBe('');
    expect(section[16]).toBe('2. `r2` (redeploy of `r1`) `DEPLOYED`');
  });

  it('says nothing of attempts when there was one', () => {
    expect(renderPrComment(report(), context)).not.toContain('Attempts');
  });
});
