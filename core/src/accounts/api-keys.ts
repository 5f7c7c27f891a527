import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { ApiKeyRow } from '../db/schema';
import { displayPrefix, generateApiKey, hashApiKey } from '../keys/key-format';
import type { KeyVault } from '../keys/key-vault';
import { newId } from '../ids';

export interface IssuedKey {
  id: string;
  userId: string;
  prefix: string;
  name: string | null;
  /** The full key: shown once, never stored in plaintext. */
  key: string;
  createdAt: Date;
}

export async function issueApiKey(db: Db, vault: KeyVault, userId: string, name: string | null = null): Promise<IssuedKey> {
  const key = generateApiKey();
  const row = await db
    .insertInto('api_keys')
    .values({
      id: newId('key'),
      user_id: userId,
      prefix: displayPrefix(key),
      name,
      key_hash: hashApiKey(key),
      key_ciphertext: vault.seal(key),
    })
    .returning(['id', 'user_id', 'prefix', 'name', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, userId: row.user_id, prefix: row.prefix, name: row.name, key, createdAt: row.created_at };
}

export function listApiKeys(db: Db, userId: string): Promise<Omit<ApiKeyRow, 'key_hash' | 'key_ciphertext'>[]> {
  return db
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'prefix', 'name', 'created_at', 'last_used_at', 'revoked_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
}

/**
 * Revokes the live key with this id or display prefix. A prefix that matches several live keys
 * revokes none and reports the ambiguity.
 */
export async function revokeApiKey(
  db: Db,
  idOrPrefix: string,
): Promise<{ revoked: { id: string; prefix: string } | null; ambiguous: boolean }> {
  const matches = await db
    .selectFrom('api_keys')
    .select(['id', 'prefix'])
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('id', '=', idOrPrefix), eb('prefix', '=', idOrPrefix)]))
    .execute();
  if (matches.length !== 1) return { revoked: null, ambiguous: matches.length > 1 };
  await db.updateTable('api_keys').set({ revoked_at: new Date() }).where('id', '=', matches[0]!.id).execute();
  return { revoked: matches[0]!, ambiguous: false };
}

/**
 * Revokes one of the user's keys by id (dashboard); another user's key is as absent as a
 * missing one. Revoking a revoked key returns it unchanged.
 */
export async function revokeUserApiKey(
  db: Db,
  userId: string,
  keyId: string,
): Promise<Omit<ApiKeyRow, 'key_hash' | 'key_ciphertext'> | undefined> {
  const columns = ['id', 'user_id', 'prefix', 'name', 'created_at', 'last_used_at', 'revoked_at'] as const;
  const revoked = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning(columns)
    .executeTakeFirst();
  return revoked ?? db.selectFrom('api_keys').select(columns).where('id', '=', keyId).where('user_id', '=', userId).executeTakeFirst();
}

/** The plaintext key, for signing webhooks of tasks it created. */
export async function revealApiKey(db: Db, vault: KeyVault, apiKeyId: string): Promise<string> {
  const row = await db
    .selectFrom('api_keys')
    .select('key_ciphertext')
    .where('id', '=', apiKeyId)
    .executeTakeFirstOrThrow();
  return vault.open(row.key_ciphertext);
}

/** The live (unrevoked) key with this SHA-256 hash. */
export function findLiveKey(db: Db, keyHash: Buffer): Promise<{ id: string; user_id: string; last_used_at: Date | null } | undefined> {
  return db
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'last_used_at'])
    .where('key_hash', '=', keyHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** The user a key (live or revoked) belongs to. */
export async function ownerOfKey(db: Db, apiKeyId: string): Promise<string> {
  const row = await db.selectFrom('api_keys').select('user_id').where('id', '=', apiKeyId).executeTakeFirstOrThrow();
  return row.user_id;
}

/** Stamps these keys as used now, in one statement. */
export async function markKeysUsed(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('api_keys')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', 'in', ids)
    .execute();
}
