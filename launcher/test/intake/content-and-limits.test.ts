import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances } from '@doppel/core/accounts/credits';
import { scanId } from '@doppel/core/scans/content-scans';
import { runMaintenance } from '@doppel/worker';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';

let world: IntakeWorld;

beforeAll(async () => {
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(demoPhoto(4)),
    '/group.jpg': sendBytes(demoPhoto(5)),
    '/other-group.jpg': sendBytes(demoPhoto(6)),
    '/truncated.jpg': sendBytes(demoPhoto(6).subarray(0, 60_000)),
  });
});
afterAll(() => world.close());

const swapOf = (target: string) => ({ type: 'image', source_url: world.url('/face.jpg'), target_url: world.url(target) });

describe('the content pre-check', () => {
  it('passes ordinary photos with the default thresholds', async () => {
    const t = await world.startApp({ scan: true });
    try {
      const account = await t.createAccount({ credits: 3 });
      const res = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: swapOf('/group.jpg') });
      expect(res.status).toBe(201);
      const verdicts = await t.db.selectFrom('content_scans').select(['status', 'scores']).execute();
      expect(verdicts.map((v) => v.status)).toEqual(['clean', 'clean']);
      for (const { scores } of verdicts) {
        const sum = Object.values(scores as Record<string, number>).reduce((a, b) => a + b, 0);
        expect(sum).toBeCloseTo(1, 3);
      }
    } finally {
      await t.close();
    }
  });

  it('answers nsfw_content_detected for a flagged input and charges nothing', async () => {
    // The classifier's real scores, judged by an operator who flags any "Porn" score above 1%.
    const t = await world.startApp({ scan: { porn: 0.01, hentai: 0.99 } });
    try {
      const account = await t.createAccount({ credits: 3 });
      const res = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: swapOf('/group.jpg') });
      expect([res.status, res.body.error.code]).toEqual([422, 'nsfw_content_detected']);
      expect(res.body.error.message).toMatch(/flagged by the content analyser/);
      expect((await getBalances(t.db, account.userId)).total).toBe(3);
    } finally {
      await t.close();
    }
  });

  it('answers unsupported_media_type for an input that cannot be decoded, at once and on every retry, charging nothing', async () => {
    const t = await world.startApp({ scan: true });
    try {
      const account = await t.createAccount({ credits: 3 });
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: swapOf('/truncated.jpg') });
        expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
          415,
          'unsupported_media_type',
          'target_url: the file cannot be decoded (damaged or incomplete).',
        ]);
      }
      expect(await t.db.selectFrom('content_scans').select('status').orderBy('status').execute()).toEqual([{ status: 'clean' }, { status: 'undecodable' }]);
      expect((await getBalances(t.db, account.userId)).total).toBe(3);
    } finally {
      await t.close();
    }
  });

  it('answers api_temporarily_disabled with Retry-After while a scan is running, and the retry gets the verdict', async () => {
    // An API-only process with no time to wait: the scan job is queued but nobody has run it yet.
    const api = await world.startApp({ env: { DOPPEL_SCAN_WAIT_SECONDS: '0', DOPPEL_SCAN_RETRY_AFTER_SECONDS: '7' } });
    try {
      const account = await api.createAccount({ credits: 3 });
      const first = await api.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: swapOf('/other-group.jpg') });
      expect([first.status, first.body.error.code]).toEqual([503, 'api_temporarily_disabled']);
      expect(first.headers.get('retry-after')).toBe('7');
      expect((await getBalances(api.db, account.userId)).total).toBe(3);

      // A worker process on the same database picks the scans up.
      const worker = await world.startApp({ shareWith: api, scan: true });
      try {
        const deadline = Date.now() + 60_000;
        while ((await api.db.selectFrom('content_scans').select('sha256').where('status', '=', 'pending').execute()).length > 0) {
          if (Date.now() > deadline) throw new Error('the scans never finished');
        }
        const retry = await api.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: swapOf('/other-group.jpg') });
        expect(retry.status).toBe(201);
      } finally {
        await worker.close();
      }
    } finally {
      await api.close();
    }
  });
});

describe('the scan cache across tenants', () => {
  it("answers a create on bytes another user already had scanned exactly as one on fresh bytes: a scan of its own, and the same wait", async () => {
    // No scanner and no time to wait: any create whose inputs need a scan answers 503 at once.
    const api = await world.startApp({ env: { DOPPEL_SCAN_WAIT_SECONDS: '0', DOPPEL_SCAN_RETRY_AFTER_SECONDS: '7' } });
    try {
      const answer = (res: { status: number; headers: Headers; body: { error?: { code: string; message: string } } }) =>
        [res.status, res.body.error?.code, res.body.error?.message, res.headers.get('retry-after')];
      const pendingScans = async () => (await api.db.selectFrom('content_scans').select('sha256').where('status', '=', 'pending').execute()).length;

      // Tenant A sends the bytes first, fresh: they are scanned (by a worker started for it), and A's retry goes through.
      const a = await api.createAccount({ credits: 3 });
      const fresh = await api.request('/api/v1/swaps', { method: 'POST', key: a.apiKey, json: swapOf('/group.jpg') });
      expect(answer(fresh)).toEqual([503, 'api_temporarily_disabled', 'The inputs are still being scanned; retry shortly.', '7']);
      expect(await pendingScans()).toBe(2);
      const worker = await world.startApp({ shareWith: api, scan: true });
      try {
        const deadline = Date.now() + 60_000;
        while ((await pendingScans()) > 0) {
          if (Date.now() > deadline) throw new Error('the scans never finished');
        }
      } finally {
        await worker.close();
      }
      expect((await api.request('/api/v1/swaps', { method: 'POST', key: a.apiKey, json: swapOf('/group.jpg') })).status).toBe(201);

      // Tenant B sends the same bytes: the same answer as A's fresh create, and a scan of B's own queued.
      const b = await api.createAccount({ credits: 3 });
      const repeat = await api.request('/api/v1/swaps', { method: 'POST', key: b.apiKey, json: swapOf('/group.jpg') });
      expect(answer(repeat)).toEqual(answer(fresh));
      expect(await pendingScans()).toBe(2);
      expect((await getBalances(api.db, b.userId)).total).toBe(3);
    } finally {
      await api.close();
    }
  });
});

describe('verdicts over time', () => {
  /** An app that scans, an account on it, and the account's recorded verdict for some bytes. */
  async function scanningApp() {
    const t = await world.startApp({ scan: true });
    const account = await t.createAccount({ credits: 3 });
    const verdictOf = (bytes: Buffer) =>
      t.db.selectFrom('content_scans').select(['status', 'completed_at']).where('sha256', '=', scanId(account.userId, bytes)).executeTakeFirst();
    const lastUsed = (bytes: Buffer, days: number) =>
      sql`update content_scans set last_used_at = now() - make_interval(days => ${days}) where sha256 = ${scanId(account.userId, bytes)}`.execute(t.db);
    const create = () => t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: swapOf('/group.jpg') });
    const maintain = () => runMaintenance({ db: t.db, storage: t.services.storage, config: t.config, boss: t.services.boss });
    return { t, verdictOf, lastUsed, create, maintain };
  }
  const [source, target] = [demoPhoto(4), demoPhoto(5)];

  it('drops a verdict no create has used for the retention period; the next create scans those bytes again', async () => {
    const { t, verdictOf, lastUsed, create, maintain } = await scanningApp();
    try {
      expect((await create()).status).toBe(201);
      const sourceVerdict = await verdictOf(source);
      await lastUsed(target, t.config.retentionDays + 1);
      await lastUsed(source, t.config.retentionDays - 1);

      await maintain();
      expect(await verdictOf(target)).toBeUndefined();
      expect(await verdictOf(source)).toEqual(sourceVerdict);

      // Nothing is known of the target now: the create waits for a fresh scan, which finds it clean again.
      expect((await create()).status).toBe(201);
      expect(await verdictOf(target)).toMatchObject({ status: 'clean' });
      expect(await verdictOf(source)).toEqual(sourceVerdict);
    } finally {
      await t.close();
    }
  });

  it('keeps a verdict a create has used within the retention period, however old its scan', async () => {
    const { t, verdictOf, lastUsed, create, maintain } = await scanningApp();
    try {
      expect((await create()).status).toBe(201);
      const verdicts = [await verdictOf(source), await verdictOf(target)];
      await lastUsed(source, t.config.retentionDays + 1);
      await lastUsed(target, t.config.retentionDays + 1);

      expect((await create()).status).toBe(201);
      await maintain();
      expect([await verdictOf(source), await verdictOf(target)]).toEqual(verdicts);
    } finally {
      await t.close();
    }
  });
});

describe('byte caps', () => {
  it('answers payload_too_large for a target over the cap of its type', async () => {
    const t = await world.startApp({ env: { DOPPEL_MAX_IMAGE_BYTES: '20000' } });
    try {
      const account = await t.createAccount({ credits: 3 });
      const res = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: swapOf('/group.jpg') });
      expect([res.status, res.body.error.code]).toEqual([413, 'payload_too_large']);
      expect(res.body.error.message).toMatch(/^source_url|^target_url/);
    } finally {
      await t.close();
    }
  });

  it('answers payload_too_large for a request body over the configured limit', async () => {
    const t = await world.startApp({ env: { DOPPEL_BODY_LIMIT_BYTES: '2048' } });
    try {
      const account = await t.createAccount({ credits: 3 });
      const res = await t.request('/api/v1/swaps', {
        method: 'POST',
        key: account.apiKey,
        json: { ...swapOf('/group.jpg'), metadata: { note: 'x'.repeat(4000) } },
      });
      expect([res.status, res.body.error.code]).toEqual([413, 'payload_too_large']);
    } finally {
      await t.close();
    }
  });
});
