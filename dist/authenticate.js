// The entry of authenticate/action.yml, written by scripts/build.ts: the one bundle, command fixed.
process.env.INPUT_COMMAND = "authenticate";
await import('./index.js');
