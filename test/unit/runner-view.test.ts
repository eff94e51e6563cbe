import { describe, expect, it } from 'vitest';
import { runnerLogView, summaryView } from '../support/runner-view.ts';

describe('runnerLogView: the log as the runner shows it', () => {
  it('consumes add-mask lines and shows the values as *** from then on', () => {
    const stdout = [
      'before sk-123456 is shown',
      '::add-mask::sk-123456',
      'after sk-123456 is hidden',
      '::add-mask::multi%0Aline',
      'multi',
      '::warning::the key sk-123456 was rejected%0Asecond line',
      '',
    ].join('\n');
    expect(runnerLogView(stdout).split('\n')).toEqual([
      'before sk-123456 is shown',
      'after *** is hidden',
      'multi',
      'Warning: the key *** was rejected',
      '         second line',
    ]);
  });

  it('shows groups, notices and errors; hides debug lines unless asked', () => {
    const stdout = [
      '::group::Looking up',
      '::debug::GET /v2/deployments → 200',
      'found it',
      '::endgroup::',
      '::notice::Skipped',
      '::error::It failed%0ADo this next',
      '::set-output name=x::y',
    ].join('\n');
    expect(runnerLogView(stdout).split('\n')).toEqual([
      '▼ Looking up',
      '  found it',
      'Notice: Skipped',
      'Error: It failed',
      '       Do this next',
    ]);
    expect(runnerLogView(stdout, { debug: true })).toContain('##[debug]GET /v2/deployments');
  });
});

describe('summaryView: the summary roughly as GitHub renders it', () => {
  it('undoes escapes and entities and shows links as their address', () => {
    const markdown = [
      'Revision ended BUILD\\_FAILED: &lt;b&gt; @&#8203;org  ',
      'next line',
      '| URL | [https://a\\-b\\.example](<https://a-b.example/>) |',
      '<sub>[Workflow run](<https://github.com/o/r/actions/runs/1>)</sub>',
    ].join('\n');
    expect(summaryView(markdown).split('\n')).toEqual([
      'Revision ended BUILD_FAILED: <b> @org',
      'next line',
      '| URL | https://a-b.example/ |',
      'Workflow run (https://github.com/o/r/actions/runs/1)',
    ]);
  });
});
