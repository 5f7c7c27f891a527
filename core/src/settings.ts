import { sql } from 'kysely';
import type { Db } from './db/connect';

// The one module that reads and writes the `settings` table.

/** The name of the operator's global switch in `settings` (and in `doppel_setting` notifications). */
export const API_ENABLED = 'api_enabled';

/** The operator's global switch; when off every endpoint answers api_temporarily_disabled. */
export async function isApiEnabled(db: Db): Promise<boolean> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', API_ENABLED).executeTakeFirst();
  return row?.value !== false;
}

export async function setApiEnabled(db: Db, enabled: boolean): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name: API_ENABLED, value: JSON.stringify(enabled) })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql`excluded.value` }))
    .execute();
}

/**
 * The master key's fingerprint the database was set up with: the one given is stored if there
 * is none yet, and the stored one is returned.
 */
export async function settleMasterKeyFingerprint(db: Db, fingerprint: string): Promise<unknown> {
  await db
    .insertInto('settings')
    .values({ name: 'master_key_fingerprint', value: JSON.stringify(fingerprint) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await db.selectFrom('settings').select('value').where('name', '=', 'master_key_fingerprint').executeTakeFirstOrThrow();
  return stored.value;
}
