import { randomBytes } from 'node:crypto';
import { issueApiKey } from '@doppel/core/accounts/api-keys';
import { createUser } from '@doppel/core/accounts/users';
import { issueInvite } from '@doppel/core/dashboard/invites';
import type { TestApp, TestResponse } from './app';

export interface DashboardUser {
  userId: string;
  email: string;
  password: string;
  /** `doppel_session=<token>`, as the browser would send it. */
  cookie: string;
  csrf: string;
  apiKeyId: string;
  apiKey: string;
}

export interface DashboardRequest {
  method?: string;
  /** The session cookie to send (a user's, or a stolen one). */
  cookie?: string;
  /** Sent as x-csrf-token. */
  csrf?: string;
  json?: unknown;
  headers?: Record<string, string>;
}

/** The session cookie a response sets, as a Cookie request header value. */
export function sessionCookieOf(response: TestResponse): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('doppel_session='));
  if (!cookie) throw new Error(`no session cookie in a ${response.status} answer`);
  return cookie.split(';')[0]!;
}

/** A request to the dashboard's endpoints as a browser session makes it. */
export function dashboardRequest(t: TestApp, path: string, init: DashboardRequest = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.cookie) headers.cookie = init.cookie;
  if (init.csrf) headers['x-csrf-token'] = init.csrf;
  return t.request(`/dashboard/api${path}`, { method: init.method, json: init.json, headers });
}

/** A user with an API key who set a password through an invite link and so is signed in. */
export async function invitedUser(t: TestApp): Promise<DashboardUser> {
  const email = `user-${randomBytes(6).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const user = await createUser(t.db, { email });
  const key = await issueApiKey(t.db, t.vault, user.id);
  const invite = await issueInvite(t.db, user.id, t.url);
  const token = new URL(invite.url).pathname.split('/').at(-1)!;
  const accepted = await dashboardRequest(t, `/invites/${token}`, { method: 'POST', json: { password } });
  if (accepted.status !== 200) throw new Error(`invite refused: ${accepted.text}`);
  return {
    userId: user.id,
    email,
    password,
    cookie: sessionCookieOf(accepted),
    csrf: accepted.body.csrf_token,
    apiKeyId: key.id,
    apiKey: key.key,
  };
}
