/** Everything a request handler may read or change, gathered so handlers stay plain functions. */

import type { AuthenticateState } from './authenticate.ts';
import type { EmulatorClock } from './clock.ts';
import type { ListenerRegistry } from './listeners.ts';
import type { ResolvedOptions } from './options.ts';
import type { RunStreamScripts } from './run-stream.ts';
import type { DeploymentStore } from './store.ts';

/**
 * Every option resolved (options.ts), as the handlers read them. Two change at run time: pageCap
 * (setPageCap) and concurrentPatch (a copy whose `times` counts down; reset() restores it).
 */
export type EmulatorSettings = ResolvedOptions;

export interface EmulatorContext {
  settings: EmulatorSettings;
  clock: EmulatorClock;
  store: DeploymentStore;
  listeners: ListenerRegistry;
  authenticate: AuthenticateState;
  runStreams: RunStreamScripts;
}
