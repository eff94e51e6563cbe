/**
 * The run's control-plane client, made from the settings: the run's secrets and redactor, the
 * action's clock, an answer's secrets to the masks, its lines to the runner's log.
 */
import { ControlPlaneClient } from '../api/client.ts';
import type { AnswerSecret, Redactor } from '../api/redact.ts';
import type { Settings } from '../settings/inputs.ts';
import type { Clock } from '../wait/clock.ts';
import type { RunnerLog } from './runner-log.ts';

interface ClientRun {
  /** The secret values of the inputs (maskSecrets). */
  secrets: string[];
  redactor: Redactor;
  clock: Clock;
  onAnswerSecrets: (secrets: readonly AnswerSecret[]) => void;
  log: Pick<RunnerLog, 'debug' | 'info'>;
}

export function createClient(
  settings: Pick<Settings, 'api' | 'minMaskLength'>,
  { secrets, redactor, clock, onAnswerSecrets, log }: ClientRun,
): ControlPlaneClient {
  return new ControlPlaneClient({
    baseUrl: settings.api.url,
    apiKey: settings.api.key,
    ...(settings.api.tenantId === undefined ? {} : { tenantId: settings.api.tenantId }),
    requestTimeoutMs: settings.api.requestTimeoutMs,
    retry: { maxRetries: settings.api.maxRetries },
    secretValues: secrets,
    minSecretLength: settings.minMaskLength,
    redactor,
    onAnswerSecrets,
    clock,
    // The client's debug lines show paths, which hold server-chosen ids.
    debug: (line) => log.debug(line),
    // A retry is told where people look: a refused connection is otherwise seconds of silence.
    info: (line) => log.info(line),
  });
}
