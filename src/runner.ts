/**
 * The runner's side of a step: inputs, log commands, masks, outputs and the job summary. The
 * part of @actions/core this action uses, written against the runner's documented protocol
 * (workflow commands and environment files), without @actions/core's OIDC client, which brings
 * @actions/http-client and a second copy of undici (~490 kB and ~55 ms of start-up) into a
 * bundle that never asks for an OIDC token.
 * https://docs.github.com/actions/reference/workflow-commands-for-github-actions
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { access, appendFile, constants } from 'node:fs/promises';
import { EOL } from 'node:os';

/** `INPUT_API-KEY` for `api-key`: spaces become `_`, dashes stay (as the runner sets them). */
export function getInput(name: string, options: { trimWhitespace?: boolean } = {}): string {
  const value = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '';
  return options.trimWhitespace === false ? value : value.trim();
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** `::name::message`, the message escaped so that it cannot end the command early. */
function issue(name: string, message = ''): void {
  process.stdout.write(`::${name}::${escapeData(message)}${EOL}`);
}

export function info(message: string): void {
  process.stdout.write(`${message}${EOL}`);
}
export const debug = (message: string): void => issue('debug', message);
export const notice = (message: string): void => issue('notice', message);
export const warning = (message: string): void => issue('warning', message);
export const error = (message: string): void => issue('error', message);
export const setSecret = (value: string): void => issue('add-mask', value);

export function setFailed(message: string): void {
  process.exitCode = 1;
  error(message);
}

export async function group<T>(title: string, body: () => Promise<T>): Promise<T> {
  issue('group', title);
  try {
    return await body();
  } finally {
    issue('endgroup');
  }
}

/** `name<<DELIMITER`, value, `DELIMITER` in $GITHUB_OUTPUT, with a delimiter no value contains. */
export function setOutput(name: string, value: string): void {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) {
    process.stdout.write(EOL);
    process.stdout.write(`::set-output name=${escapeProperty(name)}::${escapeData(value)}${EOL}`);
    return;
  }
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter) || value.includes(delimiter)) {
    throw new Error(`Unexpected output ${name}: it contains the delimiter`);
  }
  appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Appends Markdown to the job summary; throws when the runner gave no writable summary file. */
export async function appendSummary(markdown: string): Promise<void> {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) throw new Error('GITHUB_STEP_SUMMARY is not set');
  await access(file, constants.R_OK | constants.W_OK);
  await appendFile(file, markdown, 'utf8');
}
