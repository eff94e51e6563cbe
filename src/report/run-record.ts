/**
 * The narrow recorder: only the facts of a run that must survive a failure or a cancellation,
 * and that the story of a cancellation (cancellation.ts) needs at the moment of the signal. Steps
 * tell it what they learn as they go; nothing else goes in it. Commands compose their report
 * from what their steps return; from here only what a step that threw had seen (the revision in
 * flight and its last status).
 */
import type { Action } from './types.ts';

/** What a run can change on the server. */
type Change = Extract<Action, 'created' | 'patched' | 'redeployed' | 'deleted'>;

/** The facts so far, as plain values. */
export interface RunFacts {
  /** The deployment acted on, as soon as it is known. */
  readonly deployment?: { readonly id: string; readonly name: string };
  /** The revision in flight: its id and the last status seen. */
  readonly revision?: { readonly id: string; readonly status: string };
  /** What this run last changed on the server. */
  readonly changed?: Change;
}

export class RunRecord {
  #facts: RunFacts = {};

  /** The deployment acted on: its id and the name people know it by. */
  deployment({ id, name }: { id: string; name: string }): void {
    this.#facts = { ...this.#facts, deployment: { id, name } };
  }

  /** A status seen of the revision in flight. */
  revisionSeen(id: string, status: string): void {
    this.#facts = { ...this.#facts, revision: { id, status } };
  }

  /** What this run changed on the server, as soon as the server said so. */
  changed(what: Change): void {
    this.#facts = { ...this.#facts, changed: what };
  }

  facts(): RunFacts {
    return this.#facts;
  }
}
