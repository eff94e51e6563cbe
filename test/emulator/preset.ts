/**
 * Named emulator presets, read from the option table (options.ts), where each option's production
 * and permissive values stand beside it: the service as known-behaviour.md documents production
 * (PRODUCTION), and the lenient server the emulator was before those rules (PERMISSIVE). The
 * action must be right under both; a test starts either and may override single options:
 *
 *   startEmulator({ ...PRODUCTION, clock: 'manual' });
 */
import { type EmulatorOptions, presetOf } from './options.ts';

/**
 * The production service's rules (known-behaviour.md): a build takes its ref's head when it
 * builds, a push builds deployments with build_on_push, a revision write while one is in
 * progress is refused (409), a redeploy deploys the latest DEPLOYED revision again and refuses
 * any other (400); and the defaults that are already production's, stated.
 */
export const PRODUCTION: Readonly<EmulatorOptions> = presetOf('production');

/**
 * The lenient server: a build takes the commit current when the revision was made, a push builds
 * nothing, a write while a revision is in progress is taken (the pending one ends SKIPPED), and a
 * redeploy makes a new revision of the one named.
 */
export const PERMISSIVE: Readonly<EmulatorOptions> = presetOf('permissive');
