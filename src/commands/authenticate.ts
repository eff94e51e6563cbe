/**
 * `command: authenticate` — get an OAuth token for a user and provider, or the URL of the flow a
 * person must complete when there is no token yet.
 */
import type { AuthenticateResponse } from '../api/schemas.ts';
import type { ComposedReport } from '../report/types.ts';
import type { Settings } from '../settings/inputs.ts';
import { type CommandContext, type Ending, endedBy } from './steps/command-context.ts';

export async function authenticate(ctx: CommandContext): Promise<ComposedReport> {
  const { settings } = ctx;
  const { provider, scopes } = settings.authenticate;
  // readSettings refuses an authenticate run without them.
  if (provider === undefined || scopes === undefined) {
    throw new Error("unreachable: 'provider' or 'scopes' missing");
  }
  try {
    const answer = await ctx.log.group('Authenticating', () =>
      ctx.client.authenticate(
        { ...settings.authenticate, provider, scopes },
        { signal: ctx.signal },
      ),
    );
    // Masked before anything else sees it; the `token` output carries it to later steps.
    if (answer.token) ctx.mask(answer.token);
    return composeAuthenticate(settings, { answer });
  } catch (error) {
    return composeAuthenticate(settings, { ending: ctx.ending(error) });
  }
}

/** The server's answer, or how the request ended. */
type Authentication = { answer: AuthenticateResponse } | { ending: Ending };

/** Every line of the authenticate report. */
function composeAuthenticate(
  asked: Pick<Settings, 'authenticate' | 'requireToken'>,
  authentication: Authentication,
): ComposedReport {
  if ('ending' in authentication) {
    return endedBy({ outcome: 'failure', headline: '' }, authentication.ending);
  }
  const { answer } = authentication;
  const authenticated = {
    action: 'authenticated',
    ...(answer.status ? { authStatus: answer.status } : {}),
  } as const;
  if (answer.token) {
    return {
      outcome: 'success',
      ...authenticated,
      token: answer.token,
      headline: `Obtained a token${asked.authenticate.provider ? ` for provider ${asked.authenticate.provider}` : ''}`,
    };
  }
  const status = answer.status ? ` (status ${answer.status})` : '';
  const flow = {
    ...authenticated,
    ...(answer.url ? { authUrl: answer.url } : {}),
    ...(answer.auth_id ? { authId: answer.auth_id } : {}),
    headline: answer.url
      ? `No token yet${status}: a person must complete the authentication flow`
      : `The server returned neither a token nor an authentication URL${status}`,
  };
  if (asked.requireToken || !answer.url) {
    return {
      outcome: 'failure',
      ...flow,
      reason: answer.url
        ? 'No token was returned (require-token is true): the user has not completed the authentication flow yet.'
        : 'The authenticate endpoint returned neither a token nor an authentication URL.',
      nextStep: answer.url
        ? "Open the 'auth-url' output (also in the job summary) as that user, finish the flow, then re-run the job."
        : "Check 'provider', 'user-id' and 'scopes'.",
    };
  }
  return {
    outcome: 'warning',
    ...flow,
    reason: 'No token yet: open the authentication URL in the job summary to complete the flow.',
  };
}
