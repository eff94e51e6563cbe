// The entry of redeploy/action.yml, written by scripts/build.ts: the one bundle, command fixed.
process.env.INPUT_COMMAND = "redeploy";
await import('./index.js');
