// The entry of delete/action.yml, written by scripts/build.ts: the one bundle, command fixed.
process.env.INPUT_COMMAND = "delete";
await import('./index.js');
