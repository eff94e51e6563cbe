/**
 * Entry point of the action (dist/index.js): run() does the work and reports every failure.
 *
 * The bundle is two files read one after the other: this one with `undici` and `@actions/core`,
 * then the action's code and `zod` through the dynamic import. V8 parses a file with memory that
 * grows with the file and that the process keeps, so two halves cost half the peak of one whole
 * (docs/performance.md: the main thread's heap grows 2.9 MB at load instead of 6.6 MB).
 */
import '@actions/core';
import 'undici';

const { run } = await import('./main.ts');
await run();
