// The entry of status/action.yml, written by scripts/build.ts: the one bundle, command fixed.
process.env.INPUT_COMMAND = "status";
await import('./index.js');
