/** examples/prune-previews.yml: the nightly prune promised by the README. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MIN_NAME_PREFIX_LENGTH } from '../../src/settings/command-inputs.ts';
import { parseWorkflow, runsThisAction } from '../support/workflow-lint-facts.ts';

const workflow = parseWorkflow(
  readFileSync(resolve(import.meta.dirname, '../../examples/prune-previews.yml'), 'utf8'),
);
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps ?? []);

describe('the prune example', () => {
  it('runs nightly on a schedule, and by hand', () => {
    const on = z
      .object({
        schedule: z.array(z.object({ cron: z.string() })),
        workflow_dispatch: z.unknown(),
      })
      .parse(workflow.on);
    // minute hour * * *: once a day.
    expect(on.schedule.map((entry) => entry.cron)).toEqual([
      expect.stringMatching(/^\d+ \d+ \* \* \*$/),
    ]);
  });

  it('prunes the previews of pr-preview.yml by their prefix and age', () => {
    const [step] = steps.filter(runsThisAction);
    expect(step?.with).toMatchObject({
      command: 'prune',
      'name-prefix': 'my-agent-pr-',
      'max-age': '7d',
      'github-environment': 'preview-pr-',
    });
    expect(String(step?.with?.['name-prefix']).length).toBeGreaterThanOrEqual(
      MIN_NAME_PREFIX_LENGTH,
    );
    const preview = readFileSync(
      resolve(import.meta.dirname, '../../examples/pr-preview.yml'),
      'utf8',
    );
    const number = String.raw`\$\{\{ github\.event\.(pull_request\.)?number \}\}`;
    expect(preview).toMatch(new RegExp(`name: my-agent-pr-${number}`));
    expect(preview).toMatch(new RegExp(`github-environment: preview-pr-${number}`));
  });

  it('may read pull requests and write deployments, nothing else', () => {
    expect(workflow.permissions).toEqual({ 'pull-requests': 'read', deployments: 'write' });
  });
});
