/**
 * `command: authenticate` — get an OAuth token for a user and provider, or the URL of the flow a
 * person must complete when there is no token yet.
 */
import type { CommandContext } from './steps/command-context.ts';

export async function authenticate(ctx: CommandContext): Promise<void> {
  const { settings, report } = ctx;
  const { provider, scopes } = settings.authenticate;
  // readSettings refuses an authenticate run without them.
  if (provider === undefined || scopes === undefined) {
    throw new Error("unreachable: 'provider' or 'scopes' missing");
  }
  const answer = await ctx.log.group('Authenticating', () =>
    ctx.client.authenticate({ ...settings.authenticate, provider, scopes }, { signal: ctx.signal }),
  );
  report.action = 'authenticated';
  if (answer.status) report.authStatus = answer.status;
  if (answer.token) {
    // Masked before anything else sees it; the `token` output carries it to later steps.
    ctx.mask(answer.token);
    report.token = answer.token;
    report.outcome = 'success';
    report.headline = `Obtained a token${settings.authenticate.provider ? ` for provider ${settings.authenticate.provider}` : ''}`;
    return;
  }
  if (answer.url) report.authUrl = answer.url;
  if (answer.auth_id) report.authId = answer.auth_id;
  const status = answer.status ? ` (status ${answer.status})` : '';
  report.headline = answer.url
    ? `No token yet${status}: a person must complete the authentication flow`
    : `The server returned neither a token nor an authentication URL${status}`;
  if (settings.requireToken || !answer.url) {
    report.outcome = 'failure';
    report.reason = answer.url
      ? 'No token was returned (require-token is true): the user has not completed the authentication flow yet.'
      : 'The authenticate endpoint returned neither a token nor an authentication URL.';
    report.nextStep = answer.url
      ? "Open the 'auth-url' output (also in the job summary) as that user, finish the flow, then re-run the job."
      : "Check 'provider', 'user-id' and 'scopes'.";
    return;
  }
  report.outcome = 'warning';
  report.reason =
    'No token yet: open the authentication URL in the job summary to complete the flow.';
}
