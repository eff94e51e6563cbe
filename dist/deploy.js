// The entry of deploy/action.yml, written by scripts/build.ts: the one bundle, command fixed.
process.env.INPUT_COMMAND = "deploy";
await import('./index.js');
