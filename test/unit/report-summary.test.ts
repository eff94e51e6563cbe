import { describe, expect, it } from 'vitest';
import { renderSummary, SUMMARY_LIMITS } from '../../src/report/summary.ts';
import type { CommandReport } from '../../src/report/types.ts';
import { controlCharactersIn, HOSTILE_STRINGS } from '../support/hostile-text.ts';

const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
const DEPLOYMENT_ID = '5f0c1b1e-0000-4000-8000-000000000001';
const REVISION_ID = '9a8b7c6d-0000-4000-8000-000000000002';

function deployedReport(overrides: Partial<CommandReport> = {}): CommandReport {
  return {
    command: 'deploy',
    outcome: 'success',
    action: 'created',
    headline: 'Created deployment agent-pr-12; revision 9a8b… is DEPLOYED',
    deployment: {
      id: DEPLOYMENT_ID,
      name: 'agent-pr-12',
      url: 'https://agent-pr-12.example.dev',
      status: 'READY',
      activeRevisionId: REVISION_ID,
      latestRevisionId: REVISION_ID,
      tracingProject: 'agent-pr-12',
    },
    revision: {
      id: REVISION_ID,
      status: 'DEPLOYED',
      commitSha: '0123456789abcdef0123456789abcdef01234567',
      repoRef: 'refs/pull/12/merge',
    },
    timeline: [
      { status: 'QUEUED', startedAt: T0, durationMs: 20_000 },
      { status: 'BUILDING', startedAt: T0 + 20_000, durationMs: 480_000 },
      { status: 'DEPLOYED', startedAt: T0 + 500_000, durationMs: 0 },
    ],
    runUrl: 'https://github.com/o/r/actions/runs/1',
    startedAt: T0,
    endedAt: T0 + 500_000,
    ...overrides,
  };
}

/** The summary without code spans, where a `<` or `[` would be live. */
function outsideCodeSpans(markdown: string): string {
  return markdown.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
}

/** Raw HTML the summary itself writes: the footer and link destinations. */
function liveHtml(markdown: string): string[] {
  const withoutOwn = outsideCodeSpans(markdown)
    .replace(/<\/?sub>/g, '')
    .replace(/\]\(<https?:\/\/[^<>\s]*>\)/g, '](…)');
  return withoutOwn.match(/<[^\s]*/g) ?? [];
}

/** Lines of each table, as cell counts at unescaped pipes; every row must match its header. */
function tableShapes(markdown: string): number[][] {
  const shapes: number[][] = [];
  let current: number[] | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) {
      current ??= [];
      current.push(line.split(/(?<!\\)\|/).length - 2);
    } else if (current) {
      shapes.push(current);
      current = undefined;
    }
  }
  if (current) shapes.push(current);
  return shapes;
}

function links(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(<([^>]*)>\)/g)].map((match) => match[1] ?? '');
}

describe('renderSummary: a successful deploy', () => {
  const summary = renderSummary(deployedReport());

  it('starts with the outcome and the command, then the headline', () => {
    const [heading, , headline] = summary.split('\n');
    expect(heading).toBe('## ✅ deploy succeeded');
    expect(headline).toBe('Created deployment agent\\-pr\\-12; revision 9a8b… is DEPLOYED');
  });

  it('lists the key facts', () => {
    expect(summary).toContain(`| Deployment | agent\\-pr\\-12 (\`${DEPLOYMENT_ID}\`) |`);
    expect(summary).toContain(
      '| URL | [https://agent\\-pr\\-12\\.example\\.dev](<https://agent-pr-12.example.dev/>) |',
    );
    // The run's revision is shown once, marked as the active one, not in three rows.
    expect(summary).toContain(`| Revision | \`${REVISION_ID}\` (active, latest) |`);
    expect(summary.split(REVISION_ID)).toHaveLength(2); // once: the Revision row
    expect(summary).toContain('| Revision status | `DEPLOYED` |');
    expect(summary).toContain('| Commit | `0123456789abcdef0123456789abcdef01234567` |');
    expect(summary).toContain('| Repository ref | `refs/pull/12/merge` |');
    expect(summary).not.toContain('| Active revision |');
    expect(summary).toContain('| Tracing project | agent\\-pr\\-12 |');
    expect(summary).toContain('| Deployment status | READY |');
    expect(summary).toContain('| Duration | 8m 20s |');
  });

  it('shows the revision timeline with durations', () => {
    expect(summary).toContain('### Revision timeline');
    expect(summary).toContain('| `QUEUED` | 12:00:00 | 20s |');
    expect(summary).toContain('| `BUILDING` | 12:00:20 | 8m |');
    expect(summary).toContain('| `DEPLOYED` | 12:08:20 | — |');
  });

  it('links the workflow run and nothing but http(s)', () => {
    expect(summary).toContain('<sub>[Workflow run](<https://github.com/o/r/actions/runs/1>)</sub>');
    for (const target of links(summary)) expect(target).toMatch(/^https?:\/\//);
  });

  it('has no failure sections and well-formed tables', () => {
    expect(summary).not.toContain('Why it failed');
    expect(summary).not.toContain('What to do');
    for (const shape of tableShapes(summary)) expect(new Set(shape).size).toBe(1);
    expect(summary.endsWith('\n')).toBe(true);
  });
});

describe('renderSummary: the commit built, against the run commit', () => {
  const BUILT = '0123456789abcdef0123456789abcdef01234567';
  const RUN = 'a'.repeat(40);
  it.each<[NonNullable<CommandReport['builtCommit']>, string]>([
    [{ relation: 'same', ownRepository: true }, ` (this run's commit)`],
    [
      { relation: 'contains', ownRepository: true, runCommit: RUN },
      ` (contains this run's \`${RUN}\`)`,
    ],
    [
      { relation: 'not-contained', ownRepository: true, runCommit: RUN },
      ` (does not contain this run's \`${RUN}\`: its change is not live)`,
    ],
    [
      { relation: 'unchecked', ownRepository: true, runCommit: RUN },
      ` (not this run's \`${RUN}\`; not compared)`,
    ],
    [{ relation: 'not-compared', ownRepository: false }, ' (of another repository)'],
    [{ relation: 'not-compared', ownRepository: true }, ''],
  ])('%j', (builtCommit, said) => {
    const summary = renderSummary(deployedReport({ builtCommit }));
    expect(summary).toContain(`| Commit | \`${BUILT}\`${said} |`);
  });

  it('shows a notice about the built commit with the other notices', () => {
    const summary = renderSummary(
      deployedReport({
        notices: [{ level: 'warning', message: `built ${BUILT}, not this run's ${RUN}` }],
      }),
    );
    expect(summary).toContain(RUN);
  });
});

describe('renderSummary: failures', () => {
  it('says why it failed and what to do, with the server text escaped', () => {
    const summary = renderSummary(
      deployedReport({
        outcome: 'failure',
        headline: 'Revision ended BUILD_FAILED',
        reason: 'BUILD_FAILED: <img src=x onerror=alert(1)> ask @org/team [docs](javascript:x)',
        nextStep: 'Read the build logs, fix the build, and push again.',
        revision: {
          id: REVISION_ID,
          status: 'BUILD_FAILED',
          statusMessage: 'npm ci | exit 1\n::error::x',
        },
      }),
    );
    expect(summary.split('\n')[0]).toBe('## ❌ deploy failed');
    expect(summary).toContain(
      '### Why it failed\n\nBUILD\\_FAILED: &lt;img src\\=x onerror\\=alert\\(1\\)&gt; ask @&#8203;org/team \\[docs\\]\\(javascript:x\\)',
    );
    expect(summary).toContain(
      '### What to do\n\nRead the build logs, fix the build, and push again\\.',
    );
    expect(summary).toContain('| Status message | npm ci \\| exit 1 ::error::x |');
    expect(liveHtml(summary)).toEqual([]);
    expect(links(summary).every((target) => target.startsWith('https://'))).toBe(true);
  });

  it('keeps a list of problems one per line, as the log shows it, with no HTML entities', () => {
    const summary = renderSummary(
      deployedReport({
        outcome: 'failure',
        headline: 'The inputs are not valid',
        reason: '2 inputs are not valid:\n- Input \'name\' is bad.\n- Input "wait" is bad.',
        nextStep: 'Fix them.\nThen re-run.',
      }),
    );
    expect(summary).toContain(
      '### Why it failed\n\n2 inputs are not valid:  \n\\- Input \'name\' is bad\\.  \n\\- Input "wait" is bad\\.',
    );
    expect(summary).toContain('### What to do\n\nFix them\\.  \nThen re\\-run\\.');
    expect(summary).not.toMatch(/&quot;|&#39;/);
  });

  it('lists secrets sent again apart from the changes', () => {
    const summary = renderSummary(
      deployedReport({
        changes: [{ path: 'secrets.NEW', from: undefined, to: '***' }],
        resentSecrets: ['OPENAI_API_KEY'],
      }),
    );
    expect(summary).toContain('| `secrets.NEW` | \\(unset\\) | `"***"` |');
    expect(summary).not.toContain('secrets.OPENAI_API_KEY');
    expect(summary).toContain(
      'Secrets the deployment already has were sent again: `OPENAI_API_KEY`. Secret values are never shown here, so the plan does not compare them (skip-unchanged compares them in memory where the server answers them).',
    );
  });

  it.each([
    ['timeout', '## ⏱️ deploy timed out', '### Why it timed out'],
    ['cancelled', '## 🚫 deploy was cancelled', '### Why it stopped'],
    ['warning', '## ⚠️ deploy needs attention', '### Worth a look'],
  ] as const)('titles a %s', (outcome, heading, reasonTitle) => {
    const summary = renderSummary(
      deployedReport({ outcome, reason: 'Revision was still BUILDING.', nextStep: 'Check later.' }),
    );
    expect(summary.split('\n')[0]).toBe(heading);
    expect(summary).toContain(`${reasonTitle}\n\nRevision was still BUILDING\\.`);
    expect(summary).toContain('### What to do\n\nCheck later\\.');
  });

  it('shows a URL that is not http(s) as code, never as a link', () => {
    const summary = renderSummary(
      deployedReport({
        deployment: { id: 'd', name: 'n', url: 'javascript:alert(document.cookie)' },
        runUrl: 'javascript:alert(2)',
      }),
    );
    expect(summary).toContain('| URL | `javascript:alert(document.cookie)` |');
    expect(links(summary)).toEqual([]);
    expect(summary).not.toContain('Workflow run');
  });
});

describe('renderSummary: dry run', () => {
  it('shows the planned changes as JSON, secrets by name only', () => {
    const summary = renderSummary(
      deployedReport({
        outcome: 'planned',
        action: 'would-patch',
        headline: 'Would update deployment agent-pr-12',
        changes: [
          { path: 'source_config.resource_spec.max_scale', from: 1, to: 3 },
          { path: 'source_revision_config.repo_ref', from: 'main', to: 'feature|`x`' },
          { path: 'secrets.OPENAI_API_KEY', from: undefined, to: '(set)' },
        ],
      }),
    );
    expect(summary.split('\n')[0]).toBe('## 📝 deploy dry run: nothing was changed');
    expect(summary).toContain('### Planned changes');
    expect(summary).toContain('| `source_config.resource_spec.max_scale` | `1` | `3` |');
    expect(summary).toContain(
      '| `source_revision_config.repo_ref` | `"main"` | ``"feature\\|`x`"`` |',
    );
    expect(summary).toContain('| `secrets.OPENAI_API_KEY` | \\(unset\\) | `"(set)"` |');
  });

  it('caps the changes table and says how many were left out', () => {
    const changes = Array.from({ length: 200 }, (_, i) => ({
      path: `source_config.resource_spec.labels.k${i}`,
      from: 'x'.repeat(10_000),
      to: { nested: ['y'.repeat(10_000)] },
    }));
    const summary = renderSummary(deployedReport({ outcome: 'planned', changes }));
    const rows = summary.split('\n').filter((line) => line.includes('labels.k'));
    expect(rows).toHaveLength(SUMMARY_LIMITS.changes);
    expect(summary).toContain(`… and ${200 - SUMMARY_LIMITS.changes} more changes`);
    for (const row of rows) expect(row.length).toBeLessThan(500);
  });

  it('says when there is nothing to change', () => {
    const summary = renderSummary(deployedReport({ outcome: 'planned', changes: [] }));
    expect(summary).toContain('### Planned changes\n\nNone: the deployment already matches.');
  });
});

describe('renderSummary: smoke test, authenticate, listener', () => {
  it('shows the smoke test result and a bounded number of events, escaped', () => {
    const events = Array.from({ length: 100 }, (_, i) => ({
      event: i === 0 ? 'metadata' : 'updates',
      data: i === 1 ? '{"html":"<script>alert(1)</script>","who":"@org/team"}' : `{"i":${i}}`,
    }));
    const summary = renderSummary(
      deployedReport({
        smokeTest: {
          result: 'failed',
          events,
          error: 'event: error <b>boom</b>',
          durationMs: 3200,
        },
      }),
    );
    expect(summary).toContain('### Smoke test ❌ failed in 3s');
    expect(summary).toContain('event: error &lt;b&gt;boom&lt;/b&gt;');
    expect(summary).toContain('100 events received.');
    expect(summary).toContain('| 1 | `metadata` | `{"i":0}` |');
    expect(summary).toContain(
      '| 2 | `updates` | `{"html":"<script>alert(1)</script>","who":"@org/team"}` |',
    );
    expect(summary).toContain(`… and ${100 - SUMMARY_LIMITS.smokeEvents} more events.`);
    expect(summary.split('\n').filter((line) => line.includes('`updates`'))).toHaveLength(
      SUMMARY_LIMITS.smokeEvents - 1,
    );
    expect(liveHtml(summary)).toEqual([]);
  });

  it('links the authentication URL and never shows the token', () => {
    const summary = renderSummary({
      command: 'authenticate',
      outcome: 'success',
      action: 'authenticated',
      headline: 'Authentication started',
      authUrl: 'https://auth.example.com/oauth?state=abc&next=1',
      authId: 'auth-123',
      token: 'tok-SHOULD-NOT-APPEAR',
      startedAt: T0,
      endedAt: T0 + 1000,
    });
    expect(summary).toContain(
      'Open this link to finish signing in: [https://auth\\.example\\.com/oauth?state\\=abc&amp;next\\=1](<https://auth.example.com/oauth?state=abc&amp;next=1>)',
    );
    expect(summary).toContain('Flow id: `auth-123`');
    expect(summary).not.toContain('tok-SHOULD-NOT-APPEAR');
  });

  it('does not link an authentication URL that is not http(s)', () => {
    const summary = renderSummary({
      command: 'authenticate',
      outcome: 'success',
      headline: 'Authentication started',
      authUrl: 'javascript:alert(1)',
      startedAt: T0,
      endedAt: T0,
    });
    expect(summary).toContain('not an http(s) URL, so it is not linked: `javascript:alert(1)`');
    expect(links(summary)).toEqual([]);
  });

  it('shows the listener', () => {
    const summary = renderSummary({
      command: 'listener',
      outcome: 'success',
      action: 'read',
      headline: 'Listener found',
      listener: { id: 'l-1', computeId: 'prod-cluster', namespaces: ['agents', 'tools|x'] },
      startedAt: T0,
      endedAt: T0,
    });
    expect(summary).toContain('### Listener');
    expect(summary).toContain('| Listener | `l-1` |');
    expect(summary).toContain('| Compute id | `prod-cluster` |');
    expect(summary).toContain('| Namespaces | `agents`, `tools\\|x` |');
  });
});

describe('renderSummary: notices', () => {
  it('shows each notice as a paragraph, marked by its level, escaped, after the explanation', () => {
    const summary = renderSummary(
      deployedReport({
        action: 'patched',
        notices: [
          { level: 'notice', message: "Input 'k8s-namespace' is \"b\", but deployment '<x>' ..." },
          { level: 'warning', message: 'Differs from what this action sent last.' },
        ],
      }),
    );
    expect(summary).toContain(
      "### Notices\n\nℹ️ Input 'k8s\\-namespace' is \"b\", but deployment '&lt;x&gt;' \\.\\.\\.\n\n⚠️ Differs from what this action sent last\\.",
    );
    expect(summary.indexOf('### Notices')).toBeLessThan(summary.indexOf('| Deployment |'));
  });

  it('has no Notices section without notices', () => {
    expect(renderSummary(deployedReport())).not.toContain('Notices');
    expect(renderSummary(deployedReport({ notices: [] }))).not.toContain('Notices');
  });
});

describe('renderSummary: what it never shows', () => {
  it('leaves out the token, the result and plan outputs, and anything it does not know', () => {
    const report = {
      ...deployedReport(),
      token: 'tok-SECRET-1',
      result: { secrets: [{ name: 'DB_PASSWORD', value: 'SECRET-VALUE-2' }] },
      plan: { secrets: [{ name: 'DB_PASSWORD', value: 'SECRET-VALUE-3' }] },
      apiKey: 'SECRET-API-KEY-4',
      deployment: { ...deployedReport().deployment, secrets: 'SECRET-5' },
    } as CommandReport;
    const summary = renderSummary(report);
    for (const secret of [
      'SECRET-1',
      'SECRET-VALUE-2',
      'SECRET-VALUE-3',
      'SECRET-API-KEY-4',
      'SECRET-5',
    ]) {
      expect(summary).not.toContain(secret);
    }
  });

  it('stays inert and bounded whatever every field holds', () => {
    const hostile = (i: number) => HOSTILE_STRINGS[i % HOSTILE_STRINGS.length] ?? '';
    const huge = `${HOSTILE_STRINGS.join('\n')}${'@#<'.repeat(40_000)}`;
    const report: CommandReport = {
      command: 'deploy',
      outcome: 'failure',
      action: 'patched',
      headline: huge,
      reason: huge,
      nextStep: huge,
      deployment: {
        id: huge,
        name: huge,
        url: `https://example.com/${huge}`,
        status: huge,
        activeRevisionId: huge,
        latestRevisionId: huge,
        tracingProject: huge,
      },
      revision: {
        id: huge,
        status: huge,
        statusMessage: huge,
        commitSha: huge,
        repoRef: huge,
        imageUri: huge,
        supersededBy: huge,
      },
      timeline: Array.from({ length: 10_000 }, (_, i) => ({
        status: hostile(i),
        startedAt: T0 + i,
        durationMs: i,
      })),
      changes: Array.from({ length: 10_000 }, (_, i) => ({
        path: hostile(i),
        from: huge,
        to: hostile(i + 1),
      })),
      smokeTest: {
        result: 'failed',
        error: huge,
        durationMs: 1,
        events: Array.from({ length: 10_000 }, (_, i) => ({ event: hostile(i), data: huge })),
      },
      authUrl: huge,
      authId: huge,
      listener: { id: huge, computeId: huge, namespaces: Array(1000).fill(huge) },
      notices: Array.from({ length: 1000 }, (_, i) => ({
        level: i % 2 === 0 ? 'notice' : 'warning',
        message: huge,
      })),
      runUrl: `https://github.com/${huge}`,
      startedAt: T0,
      endedAt: T0 + 1,
    };
    const summary = renderSummary(report);
    // About 42 KB today; GitHub accepts 1 MiB per step summary.
    expect(summary.length).toBeLessThan(100_000);
    expect(liveHtml(summary)).toEqual([]);
    for (const shape of tableShapes(summary)) expect(new Set(shape).size).toBe(1);
    for (const target of links(summary)) expect(target).toMatch(/^https:\/\/[^\s<>`]*$/);
    expect(outsideCodeSpans(summary)).not.toMatch(/@[\w-]/);
    expect(controlCharactersIn(summary, '\n')).toEqual([]);
  });
});

describe('renderSummary: the failed stage log', () => {
  it('shows the last lines as a code block, control characters gone, hostile text literal', () => {
    const lines = [...HOSTILE_STRINGS, 'with \u001b[31mcolour\u001b[0m', 'a ``` fence'];
    const summary = renderSummary(
      deployedReport({
        outcome: 'failure',
        failureLog: { kind: 'build', revisionId: REVISION_ID, lines },
      }),
    );
    const section = summary.split('### Build log')[1] ?? '';
    expect(
      section.startsWith(` (last ${Math.min(lines.length, SUMMARY_LIMITS.logLines)} lines)`),
    ).toBe(true);
    const block = section.split('\n').slice(2);
    const fence = block[0]?.replace(/text$/, '') ?? '';
    expect(fence.length).toBeGreaterThan(3);
    expect(controlCharactersIn(section.replaceAll('\n', ''))).toEqual([]);
    expect(section).toContain('with colour');
    const closing = block.indexOf(fence, 1);
    expect(closing).toBeGreaterThan(0);
    expect(block.slice(1, closing)).toHaveLength(Math.min(lines.length, SUMMARY_LIMITS.logLines));
  });

  it('says why there is no log', () => {
    const summary = renderSummary(
      deployedReport({
        outcome: 'failure',
        failureLog: {
          kind: 'deploy',
          revisionId: REVISION_ID,
          unavailable: 'this control plane does not serve revision logs',
        },
      }),
    );
    expect(summary).toContain('### Deploy log');
    expect(summary).toContain('Not available: this control plane does not serve revision logs\\.');
  });
});

describe('renderSummary: deploy-retries attempts', () => {
  const failedTimeline = [
    { status: 'AWAITING_DEPLOY', startedAt: T0, durationMs: 60_000 },
    { status: 'DEPLOY_FAILED', startedAt: T0 + 60_000, durationMs: 0 },
  ];
  const report = deployedReport({
    attempts: [
      {
        revisionId: 'r1',
        status: 'DEPLOY_FAILED',
        timeline: failedTimeline,
        logTail: ['a', 'b', 'c', 'd', 'e', 'f', 'Timeout: not ready *after* 300 seconds.'],
      },
      {
        revisionId: 'r1',
        redeployOf: 'r1',
        status: 'DEPLOY_FAILED',
        timeline: failedTimeline,
        logTail: ['still not ready'],
      },
      {
        revisionId: REVISION_ID,
        redeployOf: 'r1',
        status: 'DEPLOYED',
        timeline: [{ status: 'DEPLOYED', startedAt: T0 + 200_000, durationMs: 0 }],
      },
    ],
  });

  it('shows each attempt in place of the timeline: status, statuses, the end of its log', () => {
    const summary = renderSummary(report);
    expect(summary).not.toContain('### Revision timeline');
    const section = summary.slice(summary.indexOf('### Attempts'));
    expect(section).toContain('#### Attempt 1: revision `r1` `DEPLOY_FAILED`');
    expect(section).toContain(
      '#### Attempt 2: revision `r1` (redeployed in place) `DEPLOY_FAILED`',
    );
    expect(section).toContain(
      `#### Attempt 3: revision \`${REVISION_ID}\` (redeploy of \`r1\`) \`DEPLOYED\``,
    );
    const first = section.slice(0, section.indexOf('#### Attempt 2'));
    expect(first).toContain('| `AWAITING_DEPLOY` | 12:00:00 | 1m |');
    // The last lines only, the reason last, as literal text.
    expect(first).toContain(
      `Log (last ${SUMMARY_LIMITS.attemptLogLines} lines):\n\n\`\`\`text\nc\nd\ne\nf\nTimeout: not ready *after* 300 seconds.\n\`\`\``,
    );
    expect(section.slice(section.indexOf('#### Attempt 3'))).not.toContain('Log (last');
  });

  it('keeps the revision timeline when there was one attempt', () => {
    expect(renderSummary(deployedReport())).toContain('### Revision timeline');
    expect(renderSummary(deployedReport())).not.toContain('### Attempts');
  });
});
