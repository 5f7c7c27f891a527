import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '../../src/accounts/credits';
import { createUser } from '../../src/accounts/users';
import { issueInvite } from '../../src/dashboard/invites';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { finishedSwap, pollUntil } from '../support/poll';

let world: IntakeWorld;
let t: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every URL the browser asked for: the caller's media URLs must never be among them. */
const requested: string[] = [];

beforeAll(async () => {
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(demoPhoto(1)),
    '/group.jpg': sendBytes(demoPhoto(2)),
    '/hook': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
  });
  t = await world.startApp({ engine: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
  page.on('request', (request) => requested.push(request.url()));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await world?.close();
});

const hookPosts = () => world.media.requests.filter((r) => r.method === 'POST' && r.path === '/hook');

describe('the dashboard, end to end in a real browser', () => {
  it('takes an invited user from the link to a key, a swap with its preview, a resent webhook and a revoked key', async () => {
    const user = await createUser(t.db, { email: 'ada@example.com', tier: 'pro' });
    await grantCredits(t.db, user.id, 'permanent', 20);
    const invite = await issueInvite(t.db, user.id, t.url);

    // The invite link sets the password and signs in.
    await page.goto(invite.url);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByLabel('Confirm password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();

    // A new key is shown once, in a dialog, and answers the API.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name (optional)').fill('production');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Your new API key' });
    await dialog.getByText('it will not be shown again').waitFor();
    const key = (await dialog.getByTestId('new-key').textContent())!;
    expect(key).toMatch(/^dpl_/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const me = await t.request('/api/v1/me', { key });
    expect(me.status).toBe(200);
    expect(me.body.user_id).toBe(user.id);

    // A swap made with that key shows up with its result preview, made by the server.
    const created = await t.request('/api/v1/swaps', {
      method: 'POST',
      key,
      json: { type: 'image', source_url: world.url('/face.jpg'), target_url: world.url('/group.jpg'), webhook_url: world.url('/hook') },
    });
    expect(created.status).toBe(201);
    const done = await finishedSwap(t, key, created.body.id);
    expect(done.status).toBe('done');
    await page.getByRole('link', { name: 'Swaps' }).click();
    await page.getByRole('link', { name: done.id }).click();
    const result = page.getByRole('img', { name: `Result of swap ${done.id}` });
    await result.waitFor();
    await expect.poll(() => result.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    // Its webhook delivery is listed with the attempt, and Resend makes one more.
    await pollUntil(t, key, `/api/v1/swaps/${done.id}`, () => hookPosts().length >= 1);
    const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
    await deliveries.getByRole('cell', { name: '200' }).first().waitFor();
    await deliveries.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => hookPosts().length, { timeout: 30_000 }).toBe(2);
    await deliveries.getByRole('row').filter({ has: page.getByRole('cell', { name: '2', exact: true }) }).waitFor();
    expect(hookPosts()[1]!.headers['x-doppel-event-id']).toBe(hookPosts()[0]!.headers['x-doppel-event-id']);

    // Revoked after confirmation, the key is refused at once.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: /^Revoke/ }).click();
    await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('revoked', { exact: true }).waitFor();
    const refused = await t.request('/api/v1/me', { key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('invalid_api_key');

    // The browser only ever talked to the dashboard's own origin.
    expect(requested.filter((url) => !url.startsWith(`${t.url}/dashboard`))).toEqual([]);
  });
});
