import { describe, expect, it } from 'vitest';
import { ApiError, RunStreamError } from '../../src/api/errors.ts';
import { neverReachedApp, smokeRetryDelayMs } from '../../src/smoke-retry.ts';

function httpError(status: number): ApiError {
  return new ApiError({
    kind: 'http',
    message: `answered ${status}`,
    method: 'POST',
    path: '/runs/stream',
    status,
    retryable: status >= 500,
    attempts: 1,
  });
}

function transportError(code: string, retryable: boolean): ApiError {
  return new ApiError({
    kind: 'transport',
    message: code,
    method: 'POST',
    path: '/runs/stream',
    retryable,
    attempts: 1,
    code,
  });
}

describe('neverReachedApp', () => {
  it.each([502, 503, 504])('a %i before any event: tried again', (status) => {
    expect(neverReachedApp(httpError(status), 0)).toBe(true);
  });

  it.each([400, 401, 404, 422, 500])(
    'a %i: reached the app (or never will), not tried again',
    (status) => {
      expect(neverReachedApp(httpError(status), 0)).toBe(false);
    },
  );

  it.each(['ECONNREFUSED', 'ECONNRESET', 'TIMEOUT'])('%s before any event: tried again', (code) => {
    expect(neverReachedApp(transportError(code, true), 0)).toBe(true);
  });

  it('a transport error that will not go away (a certificate) is not tried again', () => {
    expect(neverReachedApp(transportError('CERT_HAS_EXPIRED', false), 0)).toBe(false);
  });

  it('nothing is tried again once an event has arrived: the run started', () => {
    expect(neverReachedApp(transportError('ECONNRESET', true), 1)).toBe(false);
    expect(neverReachedApp(httpError(503), 1)).toBe(false);
  });

  it('an error event reached the app: never tried again', () => {
    const error = new RunStreamError({ message: 'ValueError', path: '/runs/stream' });
    expect(neverReachedApp(error, 0)).toBe(false);
  });
});

describe('smokeRetryDelayMs', () => {
  it('doubles from 500 ms up to 5 s', () => {
    expect([0, 1, 2, 3, 4, 5].map(smokeRetryDelayMs)).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
  });
});
