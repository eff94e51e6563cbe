/**
 * The run's secrets, registered as soon as they are known: the runner masks them (its log and
 * summary, and every later step's) and the run's redactor removes them from everything the action
 * writes, GitHub included (the one text pipeline, api/redact.ts).
 */
import * as core from '@actions/core';
import {
  type AnswerSecret,
  AnswerSecretMasks,
  answerMasksRefusedNotice,
  type Redactor,
} from '../api/redact.ts';
import type { Settings } from '../settings/inputs.ts';
import { secretValues, unmaskedSecretWarnings } from '../settings/secrets.ts';
import type { RunnerLog } from './runner-log.ts';

/** A secret the log must never show, whatever its length (the API key, a token): masked and redacted. */
export function maskAlways(redactor: Redactor, value: string): void {
  core.setSecret(value);
  redactor.addAlways(value);
}

/** Masks every value the log, the summary and a PR comment must never show; returns the secrets. */
export function maskSecrets(
  redactor: Redactor,
  settings: Pick<Settings, 'secrets' | 'minMaskLength' | 'github'>,
): string[] {
  const secrets = secretValues(settings.secrets, settings.minMaskLength);
  for (const value of secrets) {
    core.setSecret(value);
    redactor.add(value);
  }
  if (settings.github.token) maskAlways(redactor, settings.github.token);
  for (const warning of unmaskedSecretWarnings(settings.secrets, settings.minMaskLength)) {
    core.warning(warning);
  }
  return secrets;
}

/**
 * What takes the secret values of an answer, as soon as it is parsed: masked by the runner and
 * redacted (AnswerSecretMasks, bounded), with one notice when a bound is reached. The run's own
 * secrets (the API key, the inputs' secret values, the token) are masked already.
 */
export function answerSecretMasker(
  redactor: Redactor,
  settings: Pick<Settings, 'secrets' | 'minMaskLength' | 'github'>,
  apiKey: string,
  log: Pick<RunnerLog, 'notice'>,
): (secrets: readonly AnswerSecret[]) => void {
  const masks = new AnswerSecretMasks(redactor, settings.minMaskLength, [
    apiKey,
    ...settings.secrets.map((secret) => secret.value),
    ...(settings.github.token ? [settings.github.token] : []),
  ]);
  return (secrets) => {
    const { mask, refused } = masks.take(secrets);
    for (const value of mask) core.setSecret(value);
    const notice = answerMasksRefusedNotice(refused);
    if (notice !== undefined) log.notice(notice);
  };
}
