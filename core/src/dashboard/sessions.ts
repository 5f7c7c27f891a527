import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { hashSecretToken, newSecretToken } from './secret-token';

/** Sessions end this long after sign-in, whatever happens in between. */
export const SESSION_HOURS = 12;

export interface DashboardSession {
  userId: string;
  csrfToken: string;
  tokenHash: Buffer;
}

export interface NewSession extends DashboardSession {
  /** The cookie value; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

export async function startSession(db: Db, userId: string): Promise<NewSession> {
  const { token, hash } = newSecretToken();
  const csrfToken = randomBytes(24).toString('base64url');
  const row = await db
    .insertInto('dashboard_sessions')
    .values({
      token_hash: hash,
      user_id: userId,
      csrf_token: csrfToken,
      expires_at: sql<Date>`now() + make_interval(hours => ${SESSION_HOURS})`,
    })
    .returning('expires_at')
    .executeTakeFirstOrThrow();
  return { token, tokenHash: hash, userId, csrfToken, expiresAt: row.expires_at };
}

/** The live session behind a cookie value; expired ones are deleted as they are met. */
export async function findSession(db: Db, token: string): Promise<DashboardSession | undefined> {
  const tokenHash = hashSecretToken(token);
  const row = await db
    .selectFrom('dashboard_sessions')
    .select(['user_id', 'csrf_token', 'expires_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.expires_at.getTime() <= Date.now()) {
    await endSession(db, tokenHash);
    return undefined;
  }
  return { userId: row.user_id, csrfToken: row.csrf_token, tokenHash };
}

export async function endSession(db: Db, tokenHash: Buffer): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Signs the user out everywhere (password set or changed), and drops expired sessions of anyone. */
export async function endUserSessions(db: Db, userId: string): Promise<void> {
  await db
    .deleteFrom('dashboard_sessions')
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('expires_at', '<=', sql<Date>`now()`)]))
    .execute();
}
