import { sql } from 'kysely';
import type { Db } from './db/connect';

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
