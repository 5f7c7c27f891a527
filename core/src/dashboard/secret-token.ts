import { createHash, randomBytes } from 'node:crypto';

/** A random bearer secret (session cookie, invite link) and the hash the database keeps of it. */
export function newSecretToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSecretToken(token) };
}

export function hashSecretToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
