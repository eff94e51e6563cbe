/** Entry point of the action (dist/index.js): run() does the work and reports every failure. */
import { run } from './main.ts';

await run();
