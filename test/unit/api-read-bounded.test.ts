/**
 * readBounded on its own, over plain streams: what every answer body goes through. The servers
 * that send too much or forever are in test/integration/client-bounded.test.ts; here are the
 * ways a body can end (or not) and what each one gives.
 */
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBounded } from '../../src/api/transport.ts';

function body(...pieces: (string | Buffer)[]): Readable {
  return Readable.from(
    pieces.map((piece) => Buffer.from(piece)),
    { objectMode: false },
  );
}

describe('readBounded', () => {
  it('reads a body whole when it fits, across pieces and multi-byte characters split between them', async () => {
    const euro = Buffer.from('€'); // three bytes
    const stream = body('{"status":"', euro.subarray(0, 1), euro.subarray(1), '"}');
    await expect(readBounded(stream, 100)).resolves.toEqual({
      text: '{"status":"€"}',
      cut: false,
    });
  });

  it('reads an empty body as no text', async () => {
    await expect(readBounded(body(), 10)).resolves.toEqual({ text: '', cut: false });
  });

  it('cuts at the cap, keeps the first part when asked, and destroys the rest', async () => {
    const kept = body('0123456789', 'abcdef');
    await expect(readBounded(kept, 12)).resolves.toEqual({ text: '0123456789ab', cut: true });
    expect(kept.destroyed).toBe(true);

    const dropped = body('0123456789', 'abcdef');
    await expect(readBounded(dropped, 12, false)).resolves.toEqual({ text: '', cut: true });
    expect(dropped.destroyed).toBe(true);
  });

  it('cuts a body that reports its destruction as an error without letting the error escape', async () => {
    // undici's answer bodies do this: destroyed before their end, they emit an AbortError.
    const stream = new PassThrough({
      destroy(error, callback) {
        callback(error ?? Object.assign(new Error('Request aborted'), { code: 'UND_ERR_ABORTED' }));
      },
    });
    const reading = readBounded(stream, 4);
    stream.write('0123456789');
    await expect(reading).resolves.toEqual({ text: '0123', cut: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stream.destroyed).toBe(true);
  });

  it('takes a body of exactly the cap as whole', async () => {
    await expect(readBounded(body('01234', '56789'), 10)).resolves.toEqual({
      text: '0123456789',
      cut: false,
    });
  });

  it('rejects with the error of a body that fails halfway', async () => {
    const stream = new PassThrough();
    const reading = readBounded(stream, 100);
    stream.write('{"sta');
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    stream.destroy(reset);
    await expect(reading).rejects.toBe(reset);
  });

  it('rejects a body closed before its end, and one that had failed before reading began', async () => {
    const closed = new PassThrough();
    const reading = readBounded(closed, 100);
    closed.write('{"sta');
    closed.destroy();
    await expect(reading).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });

    const failed = new PassThrough();
    const failure = new Error('aborted');
    failed.on('error', () => {});
    failed.destroy(failure);
    await new Promise((resolve) => setImmediate(resolve));
    await expect(readBounded(failed, 100)).rejects.toBe(failure);
  });

  it('leaves no listener of its own on the body once it has settled', async () => {
    const stream = body('{}');
    const before = ['data', 'end', 'error', 'close'].map((event) => stream.listenerCount(event));
    await readBounded(stream, 100);
    expect(['data', 'end', 'error', 'close'].map((event) => stream.listenerCount(event))).toEqual(
      before,
    );
  });
});
