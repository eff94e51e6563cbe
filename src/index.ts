/** Entry point of the action (dist/index.js): run() does the work and reports every failure. */
import { run } from './main.ts';
import { turnOffOptimisingCompilers } from './v8-tiering.ts';

// Before the polling starts: optimising it costs more memory than it saves time.
turnOffOptimisingCompilers();
await run();
