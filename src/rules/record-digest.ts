/**
 * The one keyed digest of the deploy record: HMAC-SHA256 of a value's canonical JSON, keyed with
 * a value only the workflow holds (the API key). Without the key, a digest tells nothing about
 * what it covers (a short secret cannot be guessed from it) and cannot be forged. Pure.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * `purpose` separates the digests made with one key (the desired state, what the server shows),
 * so that one can never stand for the other.
 */
export function keyedDigest(key: string, purpose: string, value: unknown): string {
  return createHmac('sha256', key)
    .update(`deploy-action record v1 ${purpose}\n`)
    .update(canonicalJson(value))
    .digest('base64url');
}

/** Equal digests, compared in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** JSON with object keys sorted at every depth, undefined members left out: one text per value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    return Object.fromEntries(
      Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      ),
    );
  });
}
