import { dashboardContract, type Session } from '@doppel/contract/dashboard';
import { findUser, findUserByEmail } from '@doppel/core/accounts/users';
import type { Db } from '@doppel/core/db/connect';
import { tsRest } from '../routes/ts-rest';
import { DashboardApiError } from './errors';
import { consumeInvite } from '@doppel/core/dashboard/invites';
import { hashPassword, UNUSABLE_HASH, verifyPassword } from './password-hash';
import { clearSessionCookie, sessionOf, setSessionCookie, type CookieReply } from './session-guard';
import { endSession, endUserSessions, startSession, type DashboardSession } from '@doppel/core/dashboard/sessions';
import { refuseThrottledSignIn, recordFailedSignIn } from './sign-in-throttle';
import { findPasswordHash, setPasswordHash } from '@doppel/core/dashboard/user-passwords';

const secureCookies = (publicUrl: string) => publicUrl.startsWith('https:');

async function sessionBody(db: Db, session: Pick<DashboardSession, 'userId' | 'csrfToken'>): Promise<Session> {
  const user = await findUser(db, session.userId);
  if (!user) throw new DashboardApiError('session_required', 'Sign in to continue.');
  return { user: { id: user.id, email: user.email, subscription_tier: user.subscription_tier }, csrf_token: session.csrfToken };
}

/** A fresh session with its cookie; every earlier session of the user ends when `replaceAll`. */
async function signInAs(db: Db, reply: CookieReply, userId: string, publicUrl: string, replaceAll: boolean): Promise<Session> {
  if (replaceAll) await endUserSessions(db, userId);
  const session = await startSession(db, userId);
  setSessionCookie(reply, session, secureCookies(publicUrl));
  return sessionBody(db, session);
}

export const getSession = tsRest.route(dashboardContract.getSession, async ({ request }) => ({
  status: 200,
  body: await sessionBody(request.server.deps.db, sessionOf(request)),
}));

export const signIn = tsRest.route(dashboardContract.signIn, async ({ request, reply, body }) => {
  const { db, config } = request.server.deps;
  await refuseThrottledSignIn(db, request.ip, body.email);
  const user = await findUserByEmail(db, body.email);
  const hash = (user && (await findPasswordHash(db, user.id))) ?? UNUSABLE_HASH;
  // The hash is checked even for an unknown email, so timing does not tell which emails exist.
  const valid = await verifyPassword(body.password, hash);
  if (!user || !valid) {
    await recordFailedSignIn(db, request.ip, body.email);
    throw new DashboardApiError('sign_in_failed', 'The email or the password is not right.');
  }
  return { status: 200, body: await signInAs(db, reply, user.id, config.publicUrl, false) };
});

export const signOut = tsRest.route(dashboardContract.signOut, async ({ request, reply }) => {
  const { db, config } = request.server.deps;
  await endSession(db, sessionOf(request).tokenHash);
  clearSessionCookie(reply, secureCookies(config.publicUrl));
  return { status: 204, body: undefined };
});

export const acceptInvite = tsRest.route(dashboardContract.acceptInvite, async ({ request, reply, params, body }) => {
  const { db, config } = request.server.deps;
  const userId = await consumeInvite(db, params.token);
  if (!userId) throw new DashboardApiError('invite_invalid', 'This link is unknown, used or expired; ask for a new one.');
  await setPasswordHash(db, userId, await hashPassword(body.password));
  return { status: 200, body: await signInAs(db, reply, userId, config.publicUrl, true) };
});

export const changePassword = tsRest.route(dashboardContract.changePassword, async ({ request, reply, body }) => {
  const { db, config } = request.server.deps;
  const { userId } = sessionOf(request);
  const current = await findPasswordHash(db, userId);
  if (!current || !(await verifyPassword(body.current_password, current))) {
    throw new DashboardApiError('wrong_password', 'The current password is not right.');
  }
  await setPasswordHash(db, userId, await hashPassword(body.new_password));
  return { status: 200, body: await signInAs(db, reply, userId, config.publicUrl, true) };
});
