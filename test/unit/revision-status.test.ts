import { describe, expect, it } from 'vitest';
import {
  BUILD_PHASE_STATUSES,
  DEPLOY_PHASE_STATUSES,
  FAILED_REVISION_STATUSES,
  IN_PROGRESS_REVISION_STATUSES,
  isFailedRevisionStatus,
  isInProgressRevisionStatus,
  REVISION_STATUSES,
  TERMINAL_REVISION_STATUSES,
} from '../../src/wait/revision-status.ts';

describe('the revision status groups', () => {
  it('list known-behaviour.md statuses, each once', () => {
    expect([...REVISION_STATUSES].sort()).toEqual(
      [
        'CREATING',
        'QUEUED',
        'AWAITING_BUILD',
        'BUILDING',
        'AWAITING_DEPLOY',
        'DEPLOYING',
        'CREATE_FAILED',
        'BUILD_FAILED',
        'DEPLOY_FAILED',
        'DEPLOYED',
        'SKIPPED',
        'INTERRUPTED',
        'UNKNOWN',
      ].sort(),
    );
  });

  it('never call a status both in progress and final', () => {
    for (const status of IN_PROGRESS_REVISION_STATUSES) {
      expect(TERMINAL_REVISION_STATUSES as readonly string[]).not.toContain(status);
    }
  });

  it('take the build and deploy phases from the in-progress path, in its order', () => {
    expect(
      IN_PROGRESS_REVISION_STATUSES.filter((status) => BUILD_PHASE_STATUSES.has(status)),
    ).toEqual(['AWAITING_BUILD', 'BUILDING']);
    expect(IN_PROGRESS_REVISION_STATUSES.slice(-2)).toEqual([...DEPLOY_PHASE_STATUSES]);
  });

  it.each([
    ['BUILDING', true, false],
    ['QUEUED', true, false],
    ['DEPLOYING', true, false],
    ['DEPLOYED', false, false],
    ['DEPLOY_FAILED', false, true],
    ['INTERRUPTED', false, true],
    ['SKIPPED', false, false],
    ['UNKNOWN', false, false],
    ['WARMING_UP', false, false],
  ])('%s: in progress %s, failed %s', (status, inProgress, failed) => {
    expect(isInProgressRevisionStatus(status)).toBe(inProgress);
    expect(isFailedRevisionStatus(status)).toBe(failed);
    expect(FAILED_REVISION_STATUSES.includes(status as never)).toBe(failed);
  });
});
