/**
 * Listeners (registered agents of self-hosted compute). The API only reads them, so tests register
 * them through the emulator (addListener or POST /_emulator/listeners).
 */
import { randomUUID } from 'node:crypto';
import { type Listener, UUID_PATTERN } from './api-shapes.ts';
import type { EmulatorClock } from './clock.ts';
import { isoAt } from './clock.ts';
import type { EmulatorContext } from './context.ts';
import { detail, type EmulatorRequest, json, type Reply } from './http.ts';
import type { ListenerInput } from './types.ts';
import { issue, validationError } from './validation.ts';

const DEFAULT_COMPUTE_ID = 'emulator-cluster';
const DEFAULT_NAMESPACES = ['default'];

export class ListenerRegistry {
  private readonly clock: EmulatorClock;
  private readonly byId = new Map<string, Listener>();

  constructor(clock: EmulatorClock) {
    this.clock = clock;
  }

  add(input: ListenerInput): Listener {
    const now = isoAt(this.clock.now());
    const listener: Listener = {
      id: input.id ?? randomUUID(),
      version: null,
      compute_type: 'k8s',
      compute_id: input.compute_id ?? DEFAULT_COMPUTE_ID,
      compute_config: {
        k8s_namespaces:
          input.k8s_namespaces === undefined ? DEFAULT_NAMESPACES : input.k8s_namespaces,
      },
      created_at: now,
      updated_at: now,
    };
    this.byId.set(listener.id.toLowerCase(), listener);
    return structuredClone(listener);
  }

  find(id: string): Listener | undefined {
    const listener = this.byId.get(id.toLowerCase());
    return listener === undefined ? undefined : structuredClone(listener);
  }

  /** The ids of every listener of the workspace, in the order they were added. */
  ids(): string[] {
    return [...this.byId.values()].map((listener) => listener.id);
  }

  reset(): void {
    this.byId.clear();
  }
}

export function getListener(context: EmulatorContext, request: EmulatorRequest): Reply {
  const listenerId = request.params.listenerId ?? '';
  // Path parameters are validated before the handler runs, so a bad UUID wins over the 403.
  if (!UUID_PATTERN.test(listenerId)) {
    return validationError([
      issue(['path', 'listener_id'], 'Input should be a valid UUID', 'uuid_parsing'),
    ]);
  }
  if (!context.settings.listenersAllowed) {
    return detail(
      403,
      'Listeners are only allowed for organizations on self-hosted enterprise plans.',
    );
  }
  const listener = context.listeners.find(listenerId);
  if (listener === undefined) return detail(404, `Listener ID ${listenerId} not found`);
  return json(200, listener);
}
