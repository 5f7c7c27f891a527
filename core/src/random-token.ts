import { randomBytes } from 'node:crypto';

/** Bytes drawn from the CSPRNG in one call, for this many short tokens, instead of a call for each. */
const DRAW_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * `bytes` fresh bytes from the CSPRNG, as base64url: for identifiers and names (task ids, storage
 * keys, request ids), a few of which every create makes. Each byte is handed out once. Secrets
 * (API keys, session tokens, key material) keep their own `randomBytes` calls.
 */
export function randomToken(bytes: number): string {
  if (used + bytes > pool.length) {
    pool = randomBytes(Math.max(DRAW_BYTES, bytes));
    used = 0;
  }
  used += bytes;
  return pool.toString('base64url', used - bytes, used);
}
