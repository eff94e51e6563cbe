/**
 * The floor of the cold-start benchmark: the least an action on our stack can do. It loads
 * @actions/core, reads its inputs and sends one request with undici (the action's first one,
 * the deployment lookup), bundled by the same ncc command as dist/index.js. The action is
 * judged against it, so what the target measures is what our own code and choices add.
 */
import * as core from '@actions/core';
import { request } from 'undici';

const apiUrl = core.getInput('api-url', { required: true });
const query = new URLSearchParams({
  name_contains: core.getInput('name', { required: true }),
  limit: '100',
  offset: '0',
});
const apiKey = core.getInput('api-key', { required: true });
core.setSecret(apiKey);

try {
  const response = await request(`${apiUrl}/v2/deployments?${query}`, {
    headers: { 'X-Api-Key': apiKey },
  });
  await response.body.dump();
  core.setOutput('status', String(response.statusCode));
} catch (error) {
  core.setFailed(error instanceof Error ? error.message : String(error));
}
