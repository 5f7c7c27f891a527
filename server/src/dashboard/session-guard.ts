import { timingSafeEqual } from 'node:crypto';
import { CSRF_HEADER, DASHBOARD_API_PREFIX, DASHBOARD_PATH } from '@doppel/contract/dashboard';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DashboardApiError } from './errors';
import { findSession, type DashboardSession, type NewSession } from '@doppel/core/dashboard/sessions';

export const SESSION_COOKIE = 'doppel_session';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: DashboardSession | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** State changes made before there is a session: guarded by the request's origin instead. */
const PRE_SESSION_ROUTES = new Set([`POST ${DASHBOARD_API_PREFIX}/session`, `POST ${DASHBOARD_API_PREFIX}/invites/:token`]);

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Loads the session behind the cookie and guards every state change against cross-site
 * requests: with a session, the `x-csrf-token` header must carry the session's token; before
 * one (sign-in, invite), the browser's Origin and Sec-Fetch-Site must say same origin.
 */
export function guardSessions(app: FastifyInstance): void {
  const { db, config } = app.deps;
  const origin = new URL(config.publicUrl).origin;
  app.decorateRequest('dashboardSession', null);
  app.addHook('preHandler', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.dashboardSession = (await findSession(db, token)) ?? null;
    if (SAFE_METHODS.has(request.method)) return;

    if (PRE_SESSION_ROUTES.has(`${request.method} ${request.routeOptions.url}`)) {
      const site = request.headers['sec-fetch-site'];
      const from = request.headers.origin;
      if ((site !== undefined && site !== 'same-origin') || (from !== undefined && from !== origin)) {
        throw new DashboardApiError('csrf_rejected', 'This request did not come from the dashboard.');
      }
      return;
    }
    const session = sessionOf(request);
    const sent = request.headers[CSRF_HEADER];
    if (typeof sent !== 'string' || !sameText(sent, session.csrfToken)) {
      throw new DashboardApiError('csrf_rejected', `Send the session's CSRF token in the ${CSRF_HEADER} header.`);
    }
  });
}

/** The signed-in session of a request, or session_required. */
export function sessionOf(request: FastifyRequest): DashboardSession {
  if (!request.dashboardSession) throw new DashboardApiError('session_required', 'Sign in to continue.');
  return request.dashboardSession;
}

/** The two cookie methods of a reply (ts-rest hands handlers a differently parameterised FastifyReply). */
export interface CookieReply {
  setCookie(name: string, value: string, options: CookieSerializeOptions): unknown;
  clearCookie(name: string, options: CookieSerializeOptions): unknown;
}

export function setSessionCookie(reply: CookieReply, session: NewSession, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: DASHBOARD_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure,
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(reply: CookieReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: DASHBOARD_PATH, httpOnly: true, sameSite: 'strict', secure });
}
