import { sql } from 'kysely';
import type { Db } from '../db/connect';

/** The user's password hash, or undefined before the first invite link was used. */
export async function findPasswordHash(db: Db, userId: string): Promise<string | undefined> {
  const row = await db.selectFrom('user_passwords').select('hash').where('user_id', '=', userId).executeTakeFirst();
  return row?.hash;
}

export async function setPasswordHash(db: Db, userId: string, hash: string): Promise<void> {
  await db
    .insertInto('user_passwords')
    .values({ user_id: userId, hash, updated_at: sql<Date>`now()` })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ hash, updated_at: sql<Date>`now()` }))
    .execute();
}
