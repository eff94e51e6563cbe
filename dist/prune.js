// The entry of prune/action.yml, written by scripts/build.ts: the one bundle, command fixed.
process.env.INPUT_COMMAND = "prune";
await import('./index.js');
