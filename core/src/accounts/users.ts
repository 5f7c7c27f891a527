import type { Db } from '../db/connect';
import type { UserRow } from '../db/schema';
import { newId } from '../ids';
import { openBalances } from './credits';

export async function createUser(
  db: Db,
  input: { email: string; tier?: string; emailVerified?: boolean },
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto('users')
      .values({
        id: newId('usr'),
        email: input.email,
        subscription_tier: input.tier ?? 'free',
        email_verified: input.emailVerified ?? false,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await openBalances(trx, user.id);
    return user;
  });
}

export function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user with exactly this email (emails are unique as written, case included). */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}
