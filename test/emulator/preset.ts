/**
 * Named emulator presets: the service as known-behaviour.md documents production (PRODUCTION), and
 * the lenient server the emulator was before those rules (PERMISSIVE). The action must be right
 * under both; a test starts either and may override single options:
 *
 *   startEmulator({ ...PRODUCTION, clock: 'manual' });
 */
import type { EmulatorOptions } from './types.ts';

/** The production service's rules (known-behaviour.md), each option's production value. */
export const PRODUCTION: Readonly<EmulatorOptions> = Object.freeze({
  // The rules that differ from the permissive server.
  buildsRefAtBuildTime: true,
  buildsOnPush: true,
  revisionInProgressConflict: true,
  documentedRedeploy: true,
  // Today's defaults, already production's, stated so the preset reads whole.
  revisionPostSupported: false,
  listRevisionsSupported: true,
  logsSupported: true,
  deleteSupported: true,
  secretsInAnswers: 'values',
  revisionsNameDeployment: false,
  revisionsShowSourceConfig: false,
  echoesCommands: false,
  answersDeploymentType: true,
  containerCreateNeedsResourceSpec: true,
  duplicateNameStatus: 409,
  exactNameFilter: false,
  revisionIdsGlobal: false,
});

/**
 * The lenient server: a build takes the commit current when the revision was made, a push builds
 * nothing, a write while a revision is in progress is taken (the pending one ends SKIPPED), and a
 * redeploy makes a new revision of the one named.
 */
export const PERMISSIVE: Readonly<EmulatorOptions> = Object.freeze({
  buildsRefAtBuildTime: false,
  buildsOnPush: false,
  revisionInProgressConflict: false,
  documentedRedeploy: false,
  redeploysInPlace: false,
});
