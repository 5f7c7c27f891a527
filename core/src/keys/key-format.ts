import { createHash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'dpl_';
/** Characters of a key shown in listings and accepted by `keys revoke`: `dpl_` and 8 more. */
export const DISPLAY_PREFIX_LENGTH = 12;
const API_KEY_PATTERN = /^dpl_[A-Za-z0-9_-]{43}$/;

/** A new key: 32 random bytes (256 bits of entropy), base64url, behind a recognisable prefix. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function looksLikeApiKey(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}

export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
