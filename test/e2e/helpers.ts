/** Shared set-up of the end-to-end tests: an emulator per test and the action's base inputs. */
import type { Emulator } from '../emulator/index.ts';
import { writesIn } from './command-fixtures.ts';

export const API_KEY = 'e2e-key-7f3a9c1d2b4e';
export const SECRET_VALUE = 's3cr3t-value-9d8e7f';
export const ENV_SECRET_VALUE = 'from-env-value-5a6b7c';

/** Inputs every deploy run needs, pointed at the emulator, with fast polling. */
export function deployInputs(emulator: Emulator, extra: Record<string, string> = {}) {
  return {
    'api-url': emulator.url,
    'api-key': API_KEY,
    name: 'agent',
    'repo-url': 'https://github.com/acme/agent',
    'graph-config-path': 'langgraph.json',
    secrets: `OPENAI_API_KEY=${SECRET_VALUE}\nFROM_ENV`,
    'poll-interval': '20ms',
    'wait-timeout': '10s',
    ...extra,
  };
}

export const ENV = { FROM_ENV: ENV_SECRET_VALUE };
export const ALL_SECRETS = [API_KEY, SECRET_VALUE, ENV_SECRET_VALUE];

/** Requests that change something (see writesIn: not the log reads, nor a refused revision POST). */
export function writeRequests(emulator: Emulator) {
  return writesIn(emulator.requests);
}
