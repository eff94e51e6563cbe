/**
 * Turns the text of a run stream (server-sent events) into RunStreamChunks. Pure: it is fed
 * strings, however the bytes were cut, and returns the chunks each piece completed, so it is
 * tested without a server.
 */
import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';
import { AnswerTooLargeError } from './bounded-body.ts';
import type { RunStreamChunk } from './schemas.ts';

/**
 * Bound on an event still being received: a stream that never ends an event cannot eat memory.
 * Counted in characters, each at least one byte of the stream, so the cap reads as bytes.
 */
export const MAX_EVENT_CHARS = 4 * 1024 * 1024;

/** SSE's name for an event without an `event:` field. */
const DEFAULT_EVENT = 'message';

/** The data as JSON when it is JSON, else the text as sent. */
export function parseEventData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

export class RunStreamParser {
  readonly #parser: EventSourceParser;
  #completed: RunStreamChunk[] = [];
  #overflow = false;
  readonly #maxEventChars: number;

  constructor(maxEventChars: number = MAX_EVENT_CHARS) {
    this.#maxEventChars = maxEventChars;
    // Comment lines (':' heartbeats) and unknown fields are ignored, as EventSource does.
    this.#parser = createParser({
      maxBufferSize: maxEventChars,
      onEvent: (message: EventSourceMessage) => {
        this.#completed.push({
          event: message.event ?? DEFAULT_EVENT,
          data: parseEventData(message.data),
        });
      },
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.#overflow = true;
      },
    });
  }

  /** Feeds the next piece of text; returns the chunks it completed, in order. */
  feed(text: string): RunStreamChunk[] {
    if (this.#overflow) throw this.#overflowError();
    this.#parser.feed(text);
    if (this.#overflow) throw this.#overflowError();
    return this.#take();
  }

  /**
   * The stream ended. An event cut off before its closing blank line is still delivered: a
   * server or proxy that closes the connection right after the last `data:` line has said
   * everything it meant to, and dropping its last chunk would hide the run's final state.
   */
  end(): RunStreamChunk[] {
    return this.feed('\n\n');
  }

  #take(): RunStreamChunk[] {
    const completed = this.#completed;
    this.#completed = [];
    return completed;
  }

  #overflowError(): Error {
    return new AnswerTooLargeError('an event of the run stream', this.#maxEventChars);
  }
}
