import { randomToken } from './random-token';

/**
 * Unguessable identifiers: a short type prefix and 128 random bits in base64url, which keeps
 * them inside the contract's task-id pattern `[A-Za-z0-9_-]{1,64}`.
 */
export function newId(prefix: 'usr' | 'key' | 'swp' | 'fdt' | 'evt' | 'res'): string {
  return `${prefix}_${randomToken(16)}`;
}
