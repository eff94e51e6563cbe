/**
 * POST /v2/auth/authenticate. By default it starts an authentication flow (a URL to visit and
 * the flow's auth_id, no token), the answer for a user who has not authorized the provider yet.
 */
import { randomUUID } from 'node:crypto';
import { AuthenticateRequestSchema } from './api-shapes.ts';
import type { EmulatorContext } from './context.ts';
import { type EmulatorRequest, json, type Reply } from './http.ts';
import type { AuthenticateResult } from './types.ts';
import { checkBody, validationError } from './validation.ts';

export class AuthenticateState {
  private readonly baseUrl: string;
  private fixed: AuthenticateResult | undefined;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  set(result: AuthenticateResult): void {
    this.fixed = { ...result };
  }

  reset(): void {
    this.fixed = undefined;
  }

  /** The answer always has `status` (known-behaviour.md). */
  next(): AuthenticateResult {
    if (this.fixed !== undefined) {
      return { status: this.fixed.token ? 'completed' : 'pending', ...this.fixed };
    }
    const authId = randomUUID();
    return {
      status: 'pending',
      url: `${this.baseUrl}/_emulator/oauth/${authId}`,
      auth_id: authId,
    };
  }
}

export function authenticate(context: EmulatorContext, request: EmulatorRequest): Reply {
  const checked = checkBody(AuthenticateRequestSchema, request.body);
  if (!checked.ok) return validationError(checked.issues);
  return json(200, context.authenticate.next());
}
