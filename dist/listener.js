// The entry of listener/action.yml, written by scripts/build.ts: the one bundle, command fixed.
process.env.INPUT_COMMAND = "listener";
await import('./index.js');
