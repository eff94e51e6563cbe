/** Everything a request handler may read or change, gathered so handlers stay plain functions. */

import type { AuthenticateState } from './authenticate.ts';
import type { EmulatorClock } from './clock.ts';
import type { ListenerRegistry } from './listeners.ts';
import type { RunStreamScripts } from './run-stream.ts';
import type { DeploymentStore } from './store.ts';
import type { ConcurrentPatch } from './types.ts';

export interface EmulatorSettings {
  apiKey: string;
  tenantId: string | undefined;
  listenersAllowed: boolean;
  deleteSupported: boolean;
  listRevisionsSupported: boolean;
  logsSupported: boolean;
  logsDelayMs: number;
  logsFailWith: number | undefined;
  logTimestamps: 'iso' | 'epoch-ms' | 'none';
  patchAnswersStale: boolean;
  revisionPostSupported: boolean;
  /** A copy of EmulatorOptions.concurrentPatch, its `times` counted down (restored by reset). */
  concurrentPatch: ConcurrentPatch | undefined;
  revisionInProgressConflict: boolean;
  documentedRedeploy: boolean;
  /** See EmulatorOptions.pageCap; changed at run time by setPageCap (admin: POST page-cap). */
  pageCap: number | undefined;
  listOffset: 'next' | 'null' | 'sent';
  exactNameFilter: boolean;
  namelessInNameFilters: boolean;
  duplicateNameStatus: 400 | 409;
  containerCreateNeedsResourceSpec: boolean;
}

export interface EmulatorContext {
  settings: EmulatorSettings;
  clock: EmulatorClock;
  store: DeploymentStore;
  listeners: ListenerRegistry;
  authenticate: AuthenticateState;
  runStreams: RunStreamScripts;
}
