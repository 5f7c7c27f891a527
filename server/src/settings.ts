import { sql } from 'kysely';
import type { Db } from './db/connect';

/** The operator's global switch; when off every endpoint answers api_temporarily_disabled. */
export async function isApiEnabled(db: Db): Promise<boolean> {
  const row = await db.selectFrom('settings').select('value').where('name', '=', 'api_enabled').executeTakeFirst();
  return row?.value !== false;
}

export async function setApiEnabled(db: Db, enabled: boolean): Promise<void> {
  await db
    .insertInto('settings')
    .values({ name: 'api_enabled', value: JSON.stringify(enabled) })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql`excluded.value` }))
    .execute();
}
