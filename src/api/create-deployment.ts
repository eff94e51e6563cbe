/**
 * Creating a deployment without ever creating two.
 *
 * POST /v2/deployments is not idempotent: if the answer is lost (the connection drops after the
 * request was sent, a timeout, a 5xx) the deployment may exist even though we got no answer.
 * Sending the POST again would then either fail with 409 or, worse, race with the first one.
 * So after a lost answer the deployment is looked up by its (unique) name first; only when it
 * is not there is the POST sent again, after the usual backoff. A 409 on such a repeat means
 * the earlier attempt did create it (it became visible between the lookup and the repeat), so
 * it is looked up again and returned.
 *
 * A deployment found this way is the one this request created, unless another job created the
 * same name at the same moment: the name is the deployment's identity, so both cases mean "the
 * deployment with this name now exists", and the caller gets it like any created one.
 */
import { ApiError } from './errors.ts';
import type { HttpClient, HttpRequest } from './http.ts';
import { type CreateDeploymentRequest, type Deployment, DeploymentSchema } from './schemas.ts';

export type LookupByName = (
  name: string,
  signal: AbortSignal | undefined,
) => Promise<Deployment | undefined>;

export async function createDeploymentOnce(
  http: HttpClient,
  body: CreateDeploymentRequest,
  lookup: LookupByName,
  signal: AbortSignal | undefined,
): Promise<Deployment> {
  const request: HttpRequest = {
    method: 'POST',
    path: '/v2/deployments',
    body,
    subject: { kind: 'deployment-name', name: body.name },
    secrets: body.secrets.map((secret) => secret.value),
    signal,
  };
  const redact = http.redactorFor(request.secrets);
  let answerLost = false;
  let attempts = 0;
  for (;;) {
    try {
      return await http.json({ ...request, previousAttempts: attempts }, DeploymentSchema);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      attempts = error.attempts;
      const conflictAfterLoss = answerLost && error.status === 409;
      if (!error.answerLost && !conflictAfterLoss) throw error;
      answerLost = true;

      const why = conflictAfterLoss
        ? '409 after a lost answer'
        : `answer lost (${error.code ?? error.status})`;
      http.log(`POST /v2/deployments: ${why}; looking up deployment ${body.name}`, redact);
      const found = await lookup(body.name, signal);
      if (found) {
        http.log(
          `POST /v2/deployments: deployment ${body.name} exists (${found.id}); not sending again`,
          redact,
        );
        return found;
      }
      if (conflictAfterLoss || !error.retryable || attempts > http.policy.maxRetries) throw error;
      const wait = http.retryDelay(attempts - 1, error.retryAfterMs);
      http.log(
        `POST /v2/deployments: not created; retry ${attempts}/${http.policy.maxRetries} in ${wait} ms`,
        redact,
      );
      await http.pause(wait, signal);
    }
  }
}
