import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ApiError,
  checkRequest,
  describeLocation,
  httpFailure,
  InvalidRequestError,
  invalidResponseError,
  parseErrorBody,
  type RequestContext,
  redirectFailure,
  type Subject,
  transportFailureError,
} from '../../src/api/errors.ts';
import { createRedactor } from '../../src/api/redact.ts';
import { CreateDeploymentRequestSchema } from '../../src/api/schemas.ts';
import { classifyTransportError, timeoutFailure } from '../../src/api/transport.ts';

const API_KEY = 'lsv2_sk_0123456789abcdef';
const SECRET = 'hunter2-db-password';
const redactor = createRedactor([API_KEY, SECRET]);

function ctx(
  method: string,
  path: string,
  subject?: Subject,
  tenantIdSent = false,
): RequestContext {
  return { method, path, redactor, tenantIdSent, ...(subject ? { subject } : {}) };
}

/** An error built from a status and a raw body, as the HTTP layer does. */
function answered(context: RequestContext, status: number, text: string, attempts = 1): ApiError {
  return httpFailure(context, {
    status,
    body: parseErrorBody(text, context.redactor),
    attempts,
    retryable: [429, 502, 503, 504].includes(status),
  });
}

function expectNoSecrets(error: ApiError): void {
  const everything = JSON.stringify({ ...error, message: error.message });
  expect(everything).not.toContain(API_KEY);
  expect(everything).not.toContain(SECRET);
}

describe('ApiError messages', () => {
  it('404 names the deployment that was not found', () => {
    const error = answered(
      ctx('GET', '/v2/deployments/d-1', { kind: 'deployment', id: 'd-1' }),
      404,
      '{"detail":"Deployment ID d-1 not found"}',
    );
    expect(error.message).toMatch(/^deployment d-1 not found/);
    expect(error.message).toContain('GET /v2/deployments/d-1 → 404: Deployment ID d-1 not found');
    expect(error).toMatchObject({ status: 404, method: 'GET', path: '/v2/deployments/d-1' });
    expect(error.detail).toBe('Deployment ID d-1 not found');
    expect(error.retryable).toBe(false);
  });

  it('404 names a listener or a revision', () => {
    expect(
      answered(ctx('GET', '/v2/listeners/l-1', { kind: 'listener', id: 'l-1' }), 404, '').message,
    ).toMatch(/^listener l-1 not found/);
    const revision: Subject = { kind: 'revision', deploymentId: 'd-1', revisionId: 'r-9' };
    expect(answered(ctx('GET', '/v2/x', revision), 404, '').message).toMatch(
      /^revision r-9 of deployment d-1 not found/,
    );
  });

  it('401 points at the api-key input and never shows the key', () => {
    const error = answered(
      ctx('GET', '/v2/deployments'),
      401,
      `{"detail":"Invalid API key ${API_KEY}"}`,
    );
    expect(error.message).toContain('check the `api-key` input');
    expect(error.message).toContain('Invalid API key ***');
    expect(error.detail).toBe('Invalid API key ***');
    expectNoSecrets(error);
  });

  it('403 on a listener explains the plan requirement', () => {
    const error = answered(
      ctx('GET', '/v2/listeners/l-1', { kind: 'listener', id: 'l-1' }),
      403,
      '{"detail":"Listeners are only allowed for organizations on self-hosted enterprise plans"}',
    );
    expect(error.message).toContain(
      'listeners need an organization on a self-hosted enterprise plan',
    );
  });

  it('403 mentioning a workspace asks for the tenant-id input', () => {
    const body = '{"detail":"This API key is scoped to an organization: a workspace is required"}';
    expect(answered(ctx('GET', '/v2/deployments'), 403, body).message).toContain(
      'set the `tenant-id` input',
    );
    expect(answered(ctx('GET', '/v2/deployments', undefined, true), 403, body).message).toContain(
      'check the `tenant-id` input',
    );
  });

  it('other 403s say access was denied', () => {
    expect(answered(ctx('GET', '/v2/deployments'), 403, '{"detail":"nope"}').message).toMatch(
      /^access denied/,
    );
  });

  it('409 on create says the name is taken', () => {
    const error = answered(
      ctx('POST', '/v2/deployments', { kind: 'deployment-name', name: 'my-agent' }),
      409,
      '{"detail":"Deployment already exists"}',
    );
    expect(error.message).toMatch(/^the name my-agent is taken on the control plane/);
    expect(error.message).not.toMatch(/a deployment named my-agent already exists/);
  });

  it('422 gives one line per location', () => {
    const body = JSON.stringify({
      detail: [
        { loc: ['body', 'name'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'secrets', 0, 'value'], msg: `bad value ${SECRET}`, type: 'value_error' },
      ],
    });
    const error = answered(ctx('POST', '/v2/deployments'), 422, body);
    expect(error.message.split('\n')).toEqual([
      'the control plane rejected the request (POST /v2/deployments → 422):',
      '  body.name: Field required',
      '  body.secrets.0.value: bad value ***',
    ]);
    expect(error.validationErrors).toEqual([
      { loc: ['body', 'name'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'secrets', 0, 'value'], msg: 'bad value ***', type: 'value_error' },
    ]);
    expectNoSecrets(error);
  });

  it('5xx and 429 after retries name the endpoint, the last status and the attempts', () => {
    const error = answered(ctx('PATCH', '/v2/deployments/d-1'), 503, 'upstream down', 5);
    expect(error.message).toBe(
      'PATCH /v2/deployments/d-1 failed with 503 after 5 attempts (upstream down): the control plane is failing or unavailable; try again later',
    );
    expect(error).toMatchObject({ retryable: true, attempts: 5, answerLost: true });
    expect(answered(ctx('GET', '/v2/deployments'), 429, '', 3).message).toBe(
      'GET /v2/deployments failed with 429 after 3 attempts: the control plane is rate-limiting requests; try again later',
    );
  });

  it('keeps an HTML error page as shortened one-line detail', () => {
    const page = `<html>\n<body>${'x'.repeat(5_000)}</body></html>`;
    const error = answered(ctx('GET', '/v2/deployments'), 502, page, 5);
    expect(error.detail?.startsWith('<html> <body>xxx')).toBe(true);
    expect(error.detail?.length).toBeLessThanOrEqual(1_001);
  });

  it('other statuses say what failed and what the server said', () => {
    expect(answered(ctx('POST', '/v2/deployments'), 400, '{"detail":"bad source"}').message).toBe(
      'POST /v2/deployments failed with 400: bad source',
    );
  });

  it('redacts secrets echoed back in an unstructured body, also JSON-escaped', () => {
    const tricky = 'pa"ss\\word';
    const local = createRedactor([API_KEY, tricky]);
    const context: RequestContext = {
      method: 'GET',
      path: '/v2/x',
      redactor: local,
      tenantIdSent: false,
    };
    const error = httpFailure(context, {
      status: 500,
      body: parseErrorBody(`{"oops": ${JSON.stringify(tricky)}, "key": "${API_KEY}"}`, local),
      attempts: 1,
      retryable: false,
    });
    expect(error.message).not.toContain(JSON.stringify(tricky).slice(1, -1));
    expect(error.message).not.toContain(API_KEY);
  });
});

describe('errors without an answer', () => {
  it('a refused connection points at api-url', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    const error = transportFailureError(
      { ...ctx('GET', '/v2/deployments'), baseUrl: 'https://api.example.com' },
      classifyTransportError(refused),
      5,
      9_420,
    );
    // The URL tried, and how long it was tried (the retries' waits included).
    expect(error.message).toBe(
      'GET /v2/deployments failed after 5 attempts over 9.4 s: connection refused (ECONNREFUSED) at https://api.example.com/v2/deployments; check the `api-url` input and that the control plane is reachable from this runner',
    );
    expect(error).toMatchObject({ status: undefined, code: 'ECONNREFUSED', answerLost: false });
  });

  it('a timeout says so, and the answer counts as lost', () => {
    const error = transportFailureError(ctx('POST', '/v2/deployments'), timeoutFailure(30_000), 1);
    expect(error.message).toMatch(
      /^POST \/v2\/deployments timed out after 1 attempt: no complete answer within 30000 ms/,
    );
    expect(error.answerLost).toBe(true);
  });

  it('a redirect says where it pointed, without query', () => {
    const location = describeLocation(
      'https://elsewhere.example/v2/x?token=abc',
      'https://api.example',
    );
    expect(location).toBe('https://elsewhere.example/v2/x');
    const error = redirectFailure(ctx('GET', '/v2/x'), 302, location, 1);
    expect(error.message).toContain('302, a redirect to https://elsewhere.example/v2/x');
    expect(error.message).toContain('set the `api-url` input to the final address');
    expect(error.location).toBe('https://elsewhere.example/v2/x');
  });

  it('an unexpected body names the endpoint', () => {
    const error = invalidResponseError(ctx('GET', '/v2/x'), 200, 'id: expected string', 1);
    expect(error.message).toBe('unexpected response from GET /v2/x (200): id: expected string');
    expect(error.kind).toBe('invalid-response');
  });
});

describe('classifyTransportError', () => {
  it('finds a code in the cause chain and in AggregateError members', () => {
    const nested = new Error('fetch failed', {
      cause: new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]),
    });
    expect(classifyTransportError(nested)).toMatchObject({
      code: 'ECONNREFUSED',
      unprocessed: true,
    });
  });

  it('treats a dropped connection as retryable but possibly processed', () => {
    const dropped = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(classifyTransportError(dropped)).toMatchObject({ retryable: true, unprocessed: false });
  });

  it('names an untrusted certificate, does not retry it, and points to NODE_EXTRA_CA_CERTS', () => {
    const failure = classifyTransportError(
      Object.assign(new Error('self-signed certificate'), {
        cause: { code: 'SELF_SIGNED_CERT_IN_CHAIN' },
      }),
    );
    expect(failure).toMatchObject({
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
      retryable: false,
      unprocessed: true,
      certificate: true,
    });
    const error = transportFailureError(ctx('GET', '/v2/deployments'), failure, 1);
    expect(error.message).toContain('TLS certificate not trusted');
    expect(error.message).toContain('NODE_EXTRA_CA_CERTS');
    expect(error.message).not.toContain('try again later');
  });

  it('does not retry a wrong host name or an unknown error', () => {
    const unknownHost = Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' });
    expect(classifyTransportError(unknownHost).retryable).toBe(false);
    expect(classifyTransportError(new Error('weird'))).toMatchObject({
      code: 'UNKNOWN',
      description: 'weird',
      retryable: false,
    });
  });
});

describe('checkRequest', () => {
  it('tells what is wrong with a request about to be sent as the inputs are told', () => {
    const schema = z.strictObject({
      name: z.string(),
      spec: z.strictObject({ max_scale: z.number().int() }).optional(),
    });
    let thrown: unknown;
    try {
      checkRequest(schema, { name: 5, spec: { max_scael: 2, max_scale: 1 } }, 'test request');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect((thrown as InvalidRequestError).problems.sort()).toEqual([
      'name: expected text, got 5. Put the value in quotes.',
      'spec.max_scael: unknown field. Did you mean `max_scale`?',
    ]);
    expect(() => checkRequest(schema, 'text', 'test request')).toThrow(
      'invalid test request, nothing was sent: (root): expected a mapping, got the text "text".',
    );
    expect(checkRequest(schema, { name: 'a' }, 'test request')).toEqual({ name: 'a' });
  });
});

describe('checkRequest with the schemas of the requests (built on first use)', () => {
  it('names the field inside the body, with a suggestion for a misspelt one', () => {
    const body = {
      name: 'agent',
      source: 'hosted_repo',
      source_config: { repo_urll: 'https://github.com/acme/agent', deployment_type: 'dev' },
      source_revision_config: {},
      secrets: [{ name: '', value: 'x' }],
    };
    let thrown: unknown;
    try {
      checkRequest(CreateDeploymentRequestSchema, body, 'create deployment request');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidRequestError);
    expect((thrown as InvalidRequestError).problems.sort()).toEqual([
      'secrets[0].name: must be at least 1 character, got the text "".',
      'source_config.repo_urll: unknown field. Did you mean `repo_url`?',
    ]);
  });
});
