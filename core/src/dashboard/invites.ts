import { sql } from 'kysely';
import { DASHBOARD_PATH } from '@doppel/contract/dashboard';
import type { Db } from '../db/connect';
import { hashSecretToken, newSecretToken } from './secret-token';

export const INVITE_HOURS = 24;

export interface Invite {
  url: string;
  expiresAt: Date;
}

/**
 * A one-time link to set the user's password (first sign-in or reset). Asking again replaces
 * the user's previous link; only the hash of the token is stored.
 */
export async function issueInvite(db: Db, userId: string, publicUrl: string): Promise<Invite> {
  const { token, hash } = newSecretToken();
  const row = await db
    .insertInto('dashboard_invites')
    .values({ user_id: userId, token_hash: hash, expires_at: sql<Date>`now() + make_interval(hours => ${INVITE_HOURS})` })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ token_hash: hash, expires_at: sql<Date>`now() + make_interval(hours => ${INVITE_HOURS})` }),
    )
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return { url: `${publicUrl}${DASHBOARD_PATH}/invite/${token}`, expiresAt: row.expires_at };
}

/** Uses up a live link: the user it was made for, or undefined for an unknown, used or expired one. */
export async function consumeInvite(db: Db, token: string): Promise<string | undefined> {
  const row = await db
    .deleteFrom('dashboard_invites')
    .where('token_hash', '=', hashSecretToken(token))
    .where('expires_at', '>', sql<Date>`now()`)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}
