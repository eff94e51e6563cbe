/**
 * Keeps V8's optimising compilers (Maglev, TurboFan) off for this process.
 *
 * The action spends its life waiting: one small request per poll interval, where no function
 * ever runs hot enough for optimised code to pay off. Yet over a long wait the polling path
 * (node:http, timers, zod's parse) does get optimised, and the compilers' working memory was
 * the largest part of the peak RSS measured by `npm run bench` (88.5 MB; 72 MB with the
 * compilers off, against 75–78 MB for a dependency-free Node poller): the interpreter and
 * Sparkplug baseline code do the job at no measurable cost in start-up or detection delay.
 *
 * The runner starts `node dist/index.js` without flags of ours, so they are set from inside,
 * before any code has been run often enough to be optimised. V8 reads these two when it decides
 * to tier a function up, so turning them off at run time is enough.
 */
import { setFlagsFromString } from 'node:v8';

export const NO_OPTIMISING_COMPILERS = ['--no-maglev', '--no-turbofan'] as const;

export function turnOffOptimisingCompilers(): void {
  for (const flag of NO_OPTIMISING_COMPILERS) setFlagsFromString(flag);
}
