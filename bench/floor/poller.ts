/**
 * The memory floor of the stack: what @actions/core and undici need to poll, without our code,
 * zod or yaml. It creates the deployment and reads its revision every interval until the
 * timeout, writing a debug line per read, like the action does; bundled by the same ncc command
 * as dist/index.js. Shown beside the action and a Node-alone poller in the memory table.
 */
import * as core from '@actions/core';
import { Agent, request } from 'undici';

interface Answer {
  id: string;
  latest_revision_id: string;
  status: string;
}

const dispatcher = new Agent();
const base = core.getInput('api-url');
const headers = { 'x-api-key': core.getInput('api-key'), 'content-type': 'application/json' };
const milliseconds = (name: string): number => Number(core.getInput(name).replace('ms', ''));

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  const response = await request(`${base}${path}`, {
    method,
    headers,
    dispatcher,
    body: body === undefined ? null : JSON.stringify(body),
  });
  return (await response.body.json()) as Answer;
}

const interval = milliseconds('poll-interval');
const deadline = Date.now() + milliseconds('wait-timeout');
const created = await call('POST', '/v2/deployments', {
  name: core.getInput('name'),
  source: 'hosted_repo',
  secrets: [],
  source_config: { repo_url: core.getInput('repo-url') },
  source_revision_config: { graph_config_path: core.getInput('graph-config-path') },
});
const path = `/v2/deployments/${created.id}/revisions/${created.latest_revision_id}`;
while (Date.now() < deadline) {
  const started = Date.now();
  const revision = await call('GET', path);
  core.debug(`GET ${path} -> ${revision.status}`);
  const pause = interval - (Date.now() - started);
  if (pause > 0) await new Promise((wake) => setTimeout(wake, pause));
}
await dispatcher.close();
