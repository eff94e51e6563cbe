/**
 * The floor of the cold-start benchmark: the least an action on the same path as ours can do.
 * It loads @actions/core, reads its inputs and sends one HTTP request (the action's first one,
 * the deployment lookup), bundled by the same ncc command as dist/index.js. node:http adds no
 * bytes to the bundle and loads in about a millisecond, so the request itself costs nothing
 * beyond what any action pays.
 */
import { get } from 'node:http';
import * as core from '@actions/core';

const apiUrl = core.getInput('api-url', { required: true });
const query = new URLSearchParams({
  name_contains: core.getInput('name', { required: true }),
  limit: '100',
  offset: '0',
});
const apiKey = core.getInput('api-key', { required: true });
core.setSecret(apiKey);

get(`${apiUrl}/v2/deployments?${query}`, { headers: { 'X-Api-Key': apiKey } }, (response) => {
  core.setOutput('status', String(response.statusCode));
  response.resume();
}).on('error', (error) => core.setFailed(error.message));
