import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listApiKeys } from '@doppel/core/accounts/api-keys';
import { issueInvite } from '@doppel/core/dashboard/invites';
import { hashSecretToken } from '@doppel/core/dashboard/secret-token';
import { SESSION_HOURS } from '@doppel/core/dashboard/sessions';
import { SIGN_IN_FAILURES_PER_ACCOUNT } from '../../src/dashboard/sign-in-throttle';
import { insertSwap } from '@doppel/core/tasks/swaps';
import { insertFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import { enqueueWebhookEvent } from '@doppel/core/webhooks/events';
import { faceDetectRow, swapRow } from '../support/task-rows';
import { startTestApp, type TestApp, type TestResponse } from '../support/app';
import { dashboardRequest, invitedUser, sessionCookieOf, type DashboardUser } from '../support/dashboard-user';

let t: TestApp;
let alice: DashboardUser;
let bob: DashboardUser;
/** Bob's swap, its webhook event and a face detection of his: foreign to Alice. */
let bobSwapId: string;
let bobEventId: string;
let bobDetectionId: string;

/** An error answer without its request id, which differs on every request. */
const answer = (r: TestResponse) => ({ status: r.status, body: { ...r.body, error: { ...r.body.error, request_id: undefined } } });

beforeAll(async () => {
  t = await startTestApp();
  alice = await invitedUser(t);
  bob = await invitedUser(t);
  const account = { userId: bob.userId, apiKeyId: bob.apiKeyId, apiKey: bob.apiKey };
  const swap = await insertSwap(t.db, swapRow(account, { status: 'failed', error: 'no face', webhook_url: 'https://hooks.example.com/doppel' }));
  bobSwapId = swap.id;
  bobEventId = (await t.db.transaction().execute((trx) => enqueueWebhookEvent(trx, t.services.boss, swap)))!;
  bobDetectionId = (await insertFaceDetectTask(t.db, faceDetectRow(account))).id;
});
afterAll(async () => {
  await t?.close();
});

describe("another user's ids", () => {
  const missing = 'swp_doesNotExist0000000000';

  it.each([
    ['a swap', 'GET', () => `/swaps/${bobSwapId}`, `/swaps/${missing}`],
    ['a swap preview', 'GET', () => `/swaps/${bobSwapId}/previews/target/0`, `/swaps/${missing}/previews/target/0`],
    ['a swap cancel', 'POST', () => `/swaps/${bobSwapId}/cancel`, `/swaps/${missing}/cancel`],
    ['a key revoke', 'DELETE', () => `/keys/${bob.apiKeyId}`, '/keys/key_doesNotExist000000000'],
    ['a delivery resend', 'POST', () => `/deliveries/${bobEventId}/resend`, '/deliveries/evt_doesNotExist000000000/resend'],
    ['a face detection preview', 'GET', () => `/face-detect/${bobDetectionId}/preview`, '/face-detect/fdt_doesNotExist000000000/preview'],
  ])('answers %s exactly like a missing one', async (_what, method, foreign, absent) => {
    const json = method === 'POST' ? {} : undefined;
    const asAlice = { method, cookie: alice.cookie, csrf: alice.csrf, json };
    const [theirs, none] = await Promise.all([dashboardRequest(t, foreign(), asAlice), dashboardRequest(t, absent, asAlice)]);
    expect(theirs.status).toBe(404);
    expect(answer(theirs)).toEqual(answer(none));
  });

  it("leaves the other user's key live and lists none of their things", async () => {
    expect((await listApiKeys(t.db, bob.userId)).every((k) => k.revoked_at === null)).toBe(true);
    const swaps = await dashboardRequest(t, '/swaps', { cookie: alice.cookie });
    expect(swaps.body.data).toEqual([]);
    const keys = await dashboardRequest(t, '/keys', { cookie: alice.cookie });
    expect(keys.body.data.map((k: { id: string }) => k.id)).toEqual([alice.apiKeyId]);
    const detections = await dashboardRequest(t, '/face-detect', { cookie: alice.cookie });
    expect(detections.body.data).toEqual([]);
  });
});

describe('CSRF protection', () => {
  it('refuses a state change without the CSRF token, and changes nothing', async () => {
    const before = (await listApiKeys(t.db, alice.userId)).length;
    const refused = await dashboardRequest(t, '/keys', { method: 'POST', cookie: alice.cookie, json: { name: 'sneaky' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('csrf_rejected');
    const wrong = await dashboardRequest(t, '/keys', { method: 'POST', cookie: alice.cookie, csrf: bob.csrf, json: {} });
    expect(wrong.status).toBe(403);
    const revoke = await dashboardRequest(t, `/keys/${alice.apiKeyId}`, { method: 'DELETE', cookie: alice.cookie });
    expect(revoke.status).toBe(403);
    expect((await listApiKeys(t.db, alice.userId)).length).toBe(before);
    expect((await listApiKeys(t.db, alice.userId)).every((k) => k.revoked_at === null)).toBe(true);
  });

  it('accepts the same change with the token', async () => {
    const created = await dashboardRequest(t, '/keys', { method: 'POST', cookie: alice.cookie, csrf: alice.csrf, json: { name: 'ci' } });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^dpl_/);
    expect(created.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a sign-in posted from another site', async () => {
    const refused = await dashboardRequest(t, '/session', {
      method: 'POST',
      json: { email: alice.email, password: alice.password },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('csrf_rejected');
    expect(refused.headers.getSetCookie()).toEqual([]);
  });

  it('sets the session cookie HttpOnly and SameSite=Strict, on the dashboard path only', async () => {
    const signedIn = await dashboardRequest(t, '/session', { method: 'POST', json: { email: alice.email, password: alice.password } });
    const cookie = signedIn.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\/dashboard/);
    // The test server's public URL is http: a Secure cookie would never come back.
    expect(cookie).not.toMatch(/; Secure/);
  });
});

describe('sessions', () => {
  it('makes a stolen session cookie useless once its user signs out', async () => {
    const signedIn = await dashboardRequest(t, '/session', { method: 'POST', json: { email: bob.email, password: bob.password } });
    const stolen = sessionCookieOf(signedIn);
    const csrf = signedIn.body.csrf_token;
    expect((await dashboardRequest(t, '/overview', { cookie: stolen })).status).toBe(200);

    expect((await dashboardRequest(t, '/session', { method: 'DELETE', cookie: stolen, csrf })).status).toBe(204);
    const after = await dashboardRequest(t, '/overview', { cookie: stolen });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('session_required');
    expect((await dashboardRequest(t, '/keys', { method: 'POST', cookie: stolen, csrf, json: {} })).status).toBe(401);
  });

  it('refuses a session past its end, and deletes it', async () => {
    const signedIn = await dashboardRequest(t, '/session', { method: 'POST', json: { email: bob.email, password: bob.password } });
    const cookie = sessionCookieOf(signedIn);
    const tokenHash = hashSecretToken(cookie.split('=')[1]!);
    const row = await t.db.selectFrom('dashboard_sessions').select('expires_at').where('token_hash', '=', tokenHash).executeTakeFirstOrThrow();
    expect((row.expires_at.getTime() - Date.now()) / 3600_000).toBeCloseTo(SESSION_HOURS, 1);

    // The clock moved past the end: the row is dated back rather than the test waiting 12 hours.
    await sql`update dashboard_sessions set expires_at = now() - interval '1 second' where token_hash = ${tokenHash}`.execute(t.db);
    const expired = await dashboardRequest(t, '/overview', { cookie });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('session_required');
    expect(await t.db.selectFrom('dashboard_sessions').select('user_id').where('token_hash', '=', tokenHash).execute()).toEqual([]);
  });

  it('ends every other session when the password changes', async () => {
    const other = await dashboardRequest(t, '/session', { method: 'POST', json: { email: bob.email, password: bob.password } });
    const elsewhere = sessionCookieOf(other);
    const changed = await dashboardRequest(t, '/account/password', {
      method: 'POST',
      cookie: bob.cookie,
      csrf: bob.csrf,
      json: { current_password: bob.password, new_password: 'a brand new password' },
    });
    expect(changed.status).toBe(200);
    expect((await dashboardRequest(t, '/overview', { cookie: elsewhere })).status).toBe(401);
    expect((await dashboardRequest(t, '/overview', { cookie: bob.cookie })).status).toBe(401);
    expect((await dashboardRequest(t, '/overview', { cookie: sessionCookieOf(changed) })).status).toBe(200);
    bob = { ...bob, password: 'a brand new password', cookie: sessionCookieOf(changed), csrf: changed.body.csrf_token };
  });

  it('uses an invite link once; asking again replaces the previous link', async () => {
    const first = await issueInvite(t.db, alice.userId, t.url);
    const second = await issueInvite(t.db, alice.userId, t.url);
    const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
    const password = { password: 'another good password' };
    const replaced = await dashboardRequest(t, `/invites/${tokenOf(first.url)}`, { method: 'POST', json: password });
    expect(replaced.status).toBe(410);
    expect(replaced.body.error.code).toBe('invite_invalid');
    expect((await dashboardRequest(t, `/invites/${tokenOf(second.url)}`, { method: 'POST', json: password })).status).toBe(200);
    expect((await dashboardRequest(t, `/invites/${tokenOf(second.url)}`, { method: 'POST', json: password })).status).toBe(410);
    expect(second.expiresAt.getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    alice = { ...alice, password: password.password };
  });
});

describe('sign-in throttling', () => {
  /** Failures are counted in fixed minutes: a run that straddled one would start counting afresh. */
  async function clearOfMinuteEnd(marginMs = 10_000): Promise<void> {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
  }

  it(`refuses an account after ${SIGN_IN_FAILURES_PER_ACCOUNT} wrong passwords in a minute, even with the right one`, async () => {
    const victim = await invitedUser(t);
    await clearOfMinuteEnd();
    for (let i = 0; i < SIGN_IN_FAILURES_PER_ACCOUNT; i++) {
      const wrong = await dashboardRequest(t, '/session', { method: 'POST', json: { email: victim.email, password: 'not it at all' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error.code).toBe('sign_in_failed');
    }
    const blocked = await dashboardRequest(t, '/session', { method: 'POST', json: { email: victim.email, password: victim.password } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('answers an unknown email like a wrong password', async () => {
    const unknown = await dashboardRequest(t, '/session', { method: 'POST', json: { email: 'nobody@example.com', password: 'whatever it is' } });
    expect(answer(unknown)).toEqual(
      answer(await dashboardRequest(t, '/session', { method: 'POST', json: { email: alice.email, password: 'whatever it is' } })),
    );
  });
});

describe('the dashboard app', () => {
  it('is served with a strict Content-Security-Policy', async () => {
    const page = await t.request('/dashboard/keys');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
  });

  it('keeps its endpoints out of the public API', async () => {
    const overview = await t.request('/dashboard/api/overview', { key: alice.apiKey });
    expect(overview.status).toBe(401);
    expect(overview.body.error.code).toBe('session_required');
  });
});
