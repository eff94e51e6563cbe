/**
 * Reads answer bodies without ever holding more than a cap: a gateway that answers 200 with
 * hundreds of megabytes, or a body that never ends, is cut off after the cap and the connection
 * closed, so the action's memory stays flat whatever a server sends.
 *
 * Why not undici's `maxResponseSize`: it is an option of a whole connection pool, one cap for
 * every request, while a JSON answer and a run stream need their own bounds, and an error page
 * cut at the cap still has its status and first words to show.
 */
import type { Readable } from 'node:stream';

/**
 * The most read from any answer, success or error: real ones are a few kB (a page of 100
 * deployments ~200 kB; a 422 that lists hundreds of problems, tens of kB).
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** 4 MiB, 64 KiB: how caps read in messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** An answer (or a part of one) that passed its cap; reading stopped there. */
export class AnswerTooLargeError extends Error {
  override readonly name = 'AnswerTooLargeError';
  readonly code = 'ANSWER_TOO_LARGE';
  readonly limitBytes: number;

  /** `what`: "the answer", "the run stream", "an event of the run stream". */
  constructor(what: string, limitBytes: number) {
    super(`${what} is larger than ${formatBytes(limitBytes)}, the cap on what is read`);
    this.limitBytes = limitBytes;
  }
}

export interface BoundedText {
  text: string;
  /** The body went on past the cap: `text` is its first `limitBytes` bytes. */
  cut: boolean;
}

/**
 * Reads a body as UTF-8 up to `limitBytes`; past it, stops and destroys the body, and returns
 * its first `limitBytes` when `keepCut` (an error page's first words), else no text.
 */
export async function readBounded(
  body: Readable,
  limitBytes: number,
  keepCut = true,
): Promise<BoundedText> {
  let chunks: Buffer[] = [];
  let size = 0;
  let cut = false;
  for await (const piece of body) {
    const chunk = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
    const room = limitBytes - size;
    if (chunk.length > room) {
      cut = true;
      if (keepCut) {
        chunks.push(chunk.subarray(0, room));
        size = limitBytes;
      } else {
        chunks = [];
        size = 0;
      }
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  // Leaving the loop early already destroys the body; this also covers an empty remainder.
  if (cut && !body.destroyed) body.destroy();
  return { text: Buffer.concat(chunks, size).toString('utf8'), cut };
}
