import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '@doppel/core/accounts/api-keys';
import { grantCredits } from '@doppel/core/accounts/credits';
import { createUser } from '@doppel/core/accounts/users';
import { issueInvite } from '@doppel/core/dashboard/invites';
import type { TestApp } from '@doppel/server/testing/app';
import { launchBrowser } from '../support/browser';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { finishedDetection, finishedSwap, pollUntil } from '@doppel/server/testing/poll';
import { seedUsageHistory } from '../support/usage-history';

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

/** Where to write the docs' screenshots (docs/images when regenerating them); none when unset. */
const SCREENSHOTS = process.env.DOPPEL_DASHBOARD_SCREENSHOTS;
let userId: string;

/** The image is shown: the server answered its thumbnail with a picture the browser could decode. */
async function expectLoaded(image: Locator) {
  await image.waitFor();
  await expect.poll(() => image.evaluate((img: { complete: boolean; naturalWidth: number }) => (img.complete ? img.naturalWidth : 0))).toBeGreaterThan(0);
}

const hookPosts = () => world.media.requests.filter((r) => r.method === 'POST' && r.path === '/hook');

describe('the dashboard, end to end in a real browser', () => {
  it('takes an invited user from the link to a key, a swap with its preview, a resent webhook and a revoked key', async () => {
    const user = await createUser(t.db, { email: 'ada@example.com', tier: 'pro' });
    userId = user.id;
    await grantCredits(t.db, user.id, 'permanent', 400);
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
    await expectLoaded(result);

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

/** Serious and critical axe findings on the page as it is now, by rule and the elements hit. */
async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ rule: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
}

async function checkPage(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  expect(await seriousViolations(page), name).toEqual([]);
  if (SCREENSHOTS) {
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, `dashboard-${name}.png`), fullPage: true });
  }
}

describe('every page of the dashboard', () => {
  it('has no serious or critical accessibility violation, on a desktop and on a phone', async () => {
    const account = await issueApiKey(t.db, t.vault, userId, 'reporting');
    await seedUsageHistory(t.db, { userId, apiKeyId: account.id, apiKey: account.key });
    const detection = await t.request('/api/v1/face-detect', { method: 'POST', key: account.key, json: { target_url: world.url('/group.jpg') } });
    await finishedDetection(t, account.key, detection.body.task_id);
    await t.request('/api/v1/me', { key: account.key });

    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    await checkPage(page, 'overview');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('cell', { name: 'reporting', exact: true }).waitFor();
    await checkPage(page, 'keys');
    await page.getByLabel('Name (optional)').fill('staging');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('dialog', { name: 'Your new API key' }).waitFor();
    await checkPage(page, 'key-created');
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('link', { name: 'Swaps' }).click();
    await page.getByRole('table').waitFor();
    await checkPage(page, 'swaps');
    await page.getByLabel('Status').selectOption('failed');
    await expect.poll(() => page.getByRole('cell', { name: 'done', exact: true }).count()).toBe(0);

    const swap = (await t.db.selectFrom('swaps').select('id').where('result_key', 'is not', null).executeTakeFirstOrThrow()).id;
    await page.goto(`${t.url}/dashboard/swaps/${swap}`);
    await page.getByRole('img', { name: `Result of swap ${swap}` }).waitFor();
    await checkPage(page, 'swap');

    await page.getByRole('link', { name: 'Face detection' }).click();
    await expectLoaded(page.getByRole('img', { name: 'Image with 3 detected faces outlined' }));
    await checkPage(page, 'face-detection');

    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await checkPage(page, 'account');

    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true });
    try {
      const cookies = await context.cookies();
      await phone.addCookies(cookies);
      const small = await phone.newPage();
      await small.goto(`${t.url}/dashboard/`);
      await small.getByRole('heading', { name: 'Last 30 days' }).waitFor();
      await checkPage(small, 'overview-phone');
      // Nothing runs off the side of a phone screen but the scrollable tables and nav.
      expect(Number(await small.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }

    const signedOut = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const guest = await signedOut.newPage();
      await guest.goto(`${t.url}/dashboard/`);
      await guest.getByRole('button', { name: 'Sign in' }).waitFor();
      await checkPage(guest, 'sign-in');
      const invite = await issueInvite(t.db, userId, t.url);
      await guest.goto(invite.url);
      await guest.getByRole('button', { name: 'Set password' }).waitFor();
      await checkPage(guest, 'invite');
    } finally {
      await signedOut.close();
    }
  });

  it('signs out and in again with the keyboard alone', async () => {
    const signOut = page.getByRole('button', { name: 'Sign out' });
    const focused = (locator: Locator) => locator.evaluate((el) => el === el.ownerDocument.activeElement);
    await page.locator('body').focus();
    for (let i = 0; i < 12 && !(await focused(signOut)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    await page.keyboard.press('Tab');
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('correct horse battery');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });
});
