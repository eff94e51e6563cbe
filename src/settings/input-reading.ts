/**
 * The one way an input is read. Every group of inputs (inputs.ts and the *-inputs.ts files) reads
 * through an InputReading: it trims, falls back to the default, runs the input's parser and keeps
 * each problem instead of throwing, so that every problem is told together before any request.
 */
import { parseDuration } from './durations.ts';
import { InputError, InputErrorCollector } from './input-error.ts';
import { parseBoolean, parseChoice, parseInteger } from './parsers.ts';

/** Returns the raw (untrimmed) value of an input, '' when it is not set. */
export type InputReader = (name: string) => string;

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The range of every duration input, in ms. Each stays far below setTimeout's 2^31 ms limit, and
 * each has a reason:
 * - request-timeout: one request longer than 10 minutes is a hung connection, not a slow answer.
 * - wait-timeout: a GitHub-hosted job ends after 6 hours anyway.
 * - poll-interval: from 1s, because faster reads only load the control plane (a rollout takes
 *   minutes) and eat its rate limit; up to 10m, so that a status change is still noticed. A
 *   fixed interval written explicitly against a control plane on this machine (a local emulator
 *   or test server) may go down to 5ms (the memory bench polls that fast); `auto` never does.
 * - smoke-test-timeout: one run of the assistant, not a workload.
 */
export const DURATION_BOUNDS = {
  'request-timeout': { min: 100, max: 10 * MINUTE },
  'wait-timeout': { min: 100, max: 6 * HOUR },
  'poll-interval': { min: SECOND, max: 10 * MINUTE },
  'smoke-test-timeout': { min: SECOND, max: 30 * MINUTE },
} as const;

/** What every group reads its inputs with. Problems are kept, not thrown, so all are told. */
export interface InputReading {
  /** The input as given, untrimmed; '' when not set. */
  raw: InputReader;
  /** The input, trimmed; undefined when empty. */
  text(name: string): string | undefined;
  /** An optional input, parsed: undefined when empty or invalid (the problem is kept). */
  parsed<T>(name: string, parse: (value: string) => T): T | undefined;
  /** An input with a default, parsed (the default too): undefined when invalid. */
  parsedOr<T>(name: string, fallback: string, parse: (value: string) => T): T | undefined;
  /** An optional choice among `allowed`: undefined when empty or invalid. */
  choice<const Allowed extends string>(
    name: string,
    allowed: readonly Allowed[],
  ): Allowed | undefined;
  /** A boolean input: `fallback` when empty or invalid. */
  flag(name: string, fallback: boolean): boolean;
  /** A whole number within `bounds`: `fallback` when empty or invalid. */
  integer(name: string, fallback: number, bounds: { min: number; max: number }): number;
  /** A duration input within its DURATION_BOUNDS, in ms; 0 when invalid. */
  duration(name: keyof typeof DURATION_BOUNDS, fallback: string): number;
  /** Runs a check that throws an InputError; its value, or undefined (the problem is kept). */
  attempt<T>(check: () => T): T | undefined;
  /** Records a problem of `input`: `message` names it, says what is wrong and how to fix it. */
  problem(input: string, message: string): void;
  /** Throws what was recorded, if anything: one problem on its own, several together. */
  throwProblems(): void;
}

export function inputReading(read: InputReader): InputReading {
  const collector = new InputErrorCollector();
  const text = (name: string): string | undefined => nonEmpty(read(name).trim());
  const parsed = <T>(name: string, parse: (value: string) => T): T | undefined => {
    const value = text(name);
    return value === undefined ? undefined : collector.attempt(() => parse(value));
  };
  const parsedOr = <T>(name: string, fallback: string, parse: (value: string) => T) =>
    collector.attempt(() => parse(text(name) ?? fallback));
  return {
    raw: read,
    text,
    parsed,
    parsedOr,
    choice: (name, allowed) => parsed(name, (value) => parseChoice(name, value, allowed)),
    flag: (name, fallback) => parsed(name, (value) => parseBoolean(name, value)) ?? fallback,
    integer: (name, fallback, bounds) =>
      parsedOr(name, String(fallback), (value) => parseInteger(name, value, bounds)) ?? fallback,
    duration: (name, fallback) =>
      parsedOr(name, fallback, (value) => parseDuration(name, value, DURATION_BOUNDS[name])) ?? 0,
    attempt: (check) => collector.attempt(check),
    problem: (input, message) => {
      collector.errors.push(new InputError(input, message));
    },
    throwProblems: () => {
      // One problem reads best on its own; several are listed together.
      const [onlyError] = collector.errors;
      if (collector.errors.length === 1 && onlyError) throw onlyError;
      collector.throwIfAny();
    },
  };
}

export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The message of a required input left empty; `what` says what to set it to. */
export function requiredMessage(input: string, what: string): string {
  return `Input '${input}' is required and empty. Set it to ${what} in the step's 'with:'.`;
}
