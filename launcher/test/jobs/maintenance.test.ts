import { THUMBNAIL_SIZE } from '@doppel/engine';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { runMaintenance } from '@doppel/worker';
import { scanKey, thumbnailKey } from '@doppel/core/storage/keys';
import { INTERNAL_FAILURE } from '@doppel/worker';
import { queues, sendJob } from '@doppel/core/queue/boss';
import { insertFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import { insertSwap } from '@doppel/core/tasks/swaps';
import { faceDetectRow, swapRow } from '@doppel/server/testing/task-rows';
import { startTestApp, type TestApp } from '@doppel/server/testing/app';
import { revokeApiKey } from '@doppel/core/accounts/api-keys';
import { countFailure } from '@doppel/core/auth/auth-throttle';
import { budgetUsage, spendRequest } from '@doppel/core/rate-limit/request-budget';
import { claimScan, recordScan, scanId, type ScanStatus } from '@doppel/core/scans/content-scans';
import { recordStoredFiles, storedBytes } from '@doppel/core/storage/stored-files';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_RETENTION_DAYS: '30', DOPPEL_IDEMPOTENCY_RETENTION_HOURS: '24' } });
});
afterAll(() => t.close());

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

describe('maintenance', () => {
  it('deletes finished tasks past retention with their files; their ids then answer not_found', async () => {
    const account = await t.createAccount();
    const { storage } = t.services;
    await storage.put('inputs/swp_old/target-a.jpg', Buffer.from('t'), 'image/jpeg');
    await storage.put('results/r/swp_old.jpg', Buffer.from('r'), 'image/jpeg');
    const old = await insertSwap(
      t.db,
      swapRow(account, {
        status: 'done',
        inputs: JSON.stringify({ target: { key: 'inputs/swp_old/target-a.jpg' }, sources: [] }),
        result_key: 'results/r/swp_old.jpg',
      }),
    );
    const recent = await insertSwap(t.db, swapRow(account, { status: 'done' }));
    const running = await insertSwap(t.db, swapRow(account, { status: 'processing' }));
    const detection = await insertFaceDetectTask(t.db, faceDetectRow(account, { status: 'done' }));
    await sql`update swaps set created_at = ${daysAgo(31)} where id in (${old.id}, ${running.id})`.execute(t.db);
    await sql`update face_detect_tasks set created_at = ${daysAgo(40)} where id = ${detection.id}`.execute(t.db);

    await runMaintenance({ db: t.db, storage, config: t.config, boss: t.services.boss });

    const get = (path: string) => t.request(path, { key: account.apiKey }).then((r) => r.status);
    expect(await get(`/api/v1/swaps/${old.id}`)).toBe(404);
    expect(await get(`/api/v1/face-detect/${detection.id}`)).toBe(404);
    expect(await get(`/api/v1/swaps/${recent.id}`)).toBe(200);
    expect(await get(`/api/v1/swaps/${running.id}`)).toBe(200);
    await expect(storage.get('inputs/swp_old/target-a.jpg')).rejects.toThrow();
    await expect(storage.get('results/r/swp_old.jpg')).rejects.toThrow();
  });

  it('keeps up with any backlog: 1,201 expired swaps and their thumbnails are gone after one run', async () => {
    const account = await t.createAccount();
    const { storage } = t.services;
    const rows = Array.from({ length: 1201 }, () => swapRow(account, { status: 'failed' }));
    await t.db.insertInto('swaps').values(rows).execute();
    await storage.put(`thumbs/${rows[0]!.id}/target.jpg`, Buffer.from('t'), 'image/jpeg');
    await sql`update swaps set created_at = ${daysAgo(31)} where api_key_id = ${account.apiKeyId}`.execute(t.db);

    await runMaintenance({ db: t.db, storage, config: t.config, boss: t.services.boss });

    const left = await t.db.selectFrom('swaps').select('id').where('api_key_id', '=', account.apiKeyId).execute();
    expect(left).toEqual([]);
    await expect(storage.get(`thumbs/${rows[0]!.id}/target.jpg`)).rejects.toThrow();
  });

  it('forgets Idempotency-Keys past their retention and keeps younger ones', async () => {
    const account = await t.createAccount();
    await t.db
      .insertInto('idempotency_keys')
      .values([
        { api_key_id: account.apiKeyId, key: 'old', request_hash: 'h', response_status: 201, response_body: '{}' },
        { api_key_id: account.apiKeyId, key: 'new', request_hash: 'h', response_status: 201, response_body: '{}' },
      ])
      .execute();
    await sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'old'`.execute(t.db);

    await runMaintenance({ db: t.db, storage: t.services.storage, config: t.config, boss: t.services.boss });

    const left = await t.db.selectFrom('idempotency_keys').select('key').where('api_key_id', '=', account.apiKeyId).execute();
    expect(left).toEqual([{ key: 'new' }]);
  });

  it('forgets the rate-limit rows of revoked keys and of keys idle since before today, and keeps every budget that still counts', async () => {
    const limits = { perMinute: 60, perDay: 10_000 };
    const [busy, usedToday, idleSinceYesterday, revoked, revokedJustNow] = await Promise.all(Array.from({ length: 5 }, () => t.createAccount()));
    const keys = [busy, usedToday, idleSinceYesterday, revoked, revokedJustNow].map((a) => a!.apiKeyId);
    for (const key of keys) for (let i = 0; i < 3; i++) await spendRequest(t.db, key, limits);
    // Their admissions left the window two minutes ago; one key's were yesterday as well.
    const age = (apiKeyId: string, days: number) =>
      Promise.all([
        sql`update rate_limit_budgets set last_at = now() - interval '2 minutes', day = day - ${days}::int where api_key_id = ${apiKeyId}`.execute(t.db),
        sql`update rate_limit_admissions set at = now() - interval '2 minutes' where api_key_id = ${apiKeyId}`.execute(t.db),
      ]);
    await age(usedToday!.apiKeyId, 0);
    await age(idleSinceYesterday!.apiKeyId, 1);
    await age(revoked!.apiKeyId, 0);
    await revokeApiKey(t.db, revoked!.apiKeyId);
    await revokeApiKey(t.db, revokedJustNow!.apiKeyId);
    // A failed authentication of an earlier minute, and one of this minute.
    await sql`insert into auth_failures (client, window_start, count) values ('192.0.2.7', date_trunc('minute', now()) - interval '5 minutes', 3)`.execute(t.db);
    await countFailure(t.db, '192.0.2.8');

    await runMaintenance({ db: t.db, storage: t.services.storage, config: t.config, boss: t.services.boss });

    const rowsOf = async (table: 'rate_limit_budgets' | 'rate_limit_admissions') =>
      new Set((await t.db.selectFrom(table).select('api_key_id').where('api_key_id', 'in', keys).execute()).map((r) => r.api_key_id));
    const kept = [busy!.apiKeyId, usedToday!.apiKeyId, revokedJustNow!.apiKeyId];
    expect(await rowsOf('rate_limit_budgets')).toEqual(new Set(kept));
    expect(await rowsOf('rate_limit_admissions')).toEqual(new Set(kept));
    // Every live key's budget reads as before: today's count kept, yesterday's gone with its row.
    expect(await budgetUsage(t.db, [busy!.apiKeyId, usedToday!.apiKeyId, idleSinceYesterday!.apiKeyId])).toEqual(
      new Map([
        [busy!.apiKeyId, { minute: 3, today: 3 }],
        [usedToday!.apiKeyId, { minute: 0, today: 3 }],
        [idleSinceYesterday!.apiKeyId, { minute: 0, today: 0 }],
      ]),
    );
    expect((await spendRequest(t.db, idleSinceYesterday!.apiKeyId, limits)).state.remaining).toBe(limits.perMinute - 1);
    const failures = await t.db.selectFrom('auth_failures').select('client').where('client', 'in', ['192.0.2.7', '192.0.2.8']).execute();
    expect(failures).toEqual([{ client: '192.0.2.8' }]);
  });

  it('forgets content-scan verdicts no create has used for the retention period, and keeps recent ones and scans still pending', async () => {
    /** A scan of bytes named `name`, with this status, last looked up by a create `days` ago. */
    const scan = async (name: string, status: ScanStatus, days: number) => {
      const sha256 = scanId('usr_scan_owner', Buffer.from(name));
      // Claimed as a create claims it, with its job.
      await t.db.transaction().execute(async (trx) => {
        await claimScan(trx, { sha256, kind: 'jpeg', storageKey: scanKey(sha256, 'jpeg') });
        await sendJob(t.services.boss, trx, queues.contentScan.name, { sha256 });
      });
      if (status !== 'pending') await recordScan(t.db, sha256, { status, reason: null });
      await sql`update content_scans set last_used_at = ${daysAgo(days)} where sha256 = ${sha256}`.execute(t.db);
      return sha256;
    };
    const scans = [
      await scan('unused for 31 days', 'clean', 31),
      await scan('flagged, unused for 31 days', 'flagged', 31),
      await scan('used 29 days ago', 'clean', 29),
      await scan('still pending after 40 days', 'pending', 40),
    ];

    await runMaintenance({ db: t.db, storage: t.services.storage, config: t.config, boss: t.services.boss });

    const left = await t.db.selectFrom('content_scans').select('sha256').where('sha256', 'in', scans).execute();
    expect(new Set(left.map((row) => row.sha256))).toEqual(new Set([scans[2], scans[3]]));
  });

  it('fails the scans whose job is lost and deletes their copies; scans whose job is queued or running are left to it', async () => {
    const account = await t.createAccount();
    const { boss, storage } = t.services;
    // The user's upload, counted in their stored bytes; each scan's copy is made from it, as a create makes it.
    const upload = { key: 'inputs/swp_scanned/target-a.jpg', bytes: 1_000 };
    await storage.put(upload.key, Buffer.alloc(upload.bytes), 'image/jpeg');
    await recordStoredFiles(t.db, account.userId, [upload]);
    /** A pending scan of bytes named `name`, its copy stored and its job queued, as a create leaves it. */
    const pendingScan = async (name: string) => {
      const sha256 = scanId(account.userId, Buffer.from(name));
      const storageKey = scanKey(sha256, 'jpeg');
      await storage.copy(upload.key, storageKey);
      const jobId = await t.db.transaction().execute(async (trx) => {
        await claimScan(trx, { sha256, kind: 'jpeg', storageKey });
        return sendJob(boss, trx, queues.contentScan.name, { sha256 });
      });
      return { sha256, storageKey, jobId };
    };
    const running = await pendingScan('being scanned');
    const fetched = await boss.fetch(queues.contentScan.name, { batchSize: 1_000 });
    expect(fetched.map((job) => job.id)).toContain(running.jobId);
    const queued = await pendingScan('waiting for a scanner');
    // Gone as pg-boss drops a job left queued past its retention.
    const lost = await pendingScan('its job gone');
    await boss.deleteJob(queues.contentScan.name, lost.jobId);

    await runMaintenance({ db: t.db, storage, config: t.config, boss });

    const scanOf = (sha256: string) => t.db.selectFrom('content_scans').select(['status', 'reason']).where('sha256', '=', sha256).executeTakeFirstOrThrow();
    expect(await scanOf(lost.sha256)).toEqual({ status: 'failed', reason: 'the scan job was lost' });
    await expect(storage.get(lost.storageKey)).rejects.toThrow();
    for (const kept of [running, queued]) {
      expect(await scanOf(kept.sha256)).toEqual({ status: 'pending', reason: null });
      expect((await storage.get(kept.storageKey)).length).toBe(upload.bytes);
    }
    // The upload the copies were made from stays, and so does the count (no copy was ever in it).
    expect((await storage.get(upload.key)).length).toBe(upload.bytes);
    expect(await storedBytes(t.db, account.userId)).toBe(upload.bytes);
    // The next create of those bytes scans them afresh.
    expect(await t.db.transaction().execute((trx) => claimScan(trx, { sha256: lost.sha256, kind: 'jpeg', storageKey: lost.storageKey }))).toBe(true);
  });

  it('fails and refunds swaps that no job will ever finish, and leaves those a job still holds', async () => {
    const account = await t.createAccount({ credits: 5 });
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c08040' } }).jpeg().toBuffer();
    const targetKey = 'inputs/swp_orphaned/target-a.jpg';
    await t.services.storage.put(targetKey, photo, 'image/jpeg');
    const orphaned = await insertSwap(
      t.db,
      swapRow(account, {
        status: 'processing',
        updated_at: minutesAgo(5),
        webhook_url: 'https://hooks.example.com/x',
        inputs: JSON.stringify({ target: { key: targetKey, kind: 'jpeg', mimeType: 'image/jpeg' }, sources: [] }),
      }),
    );
    const queuedWithJob = await insertSwap(t.db, swapRow(account, { status: 'queued', updated_at: minutesAgo(5) }));
    await sendJob(t.services.boss, t.db, queues.swap.name, { swapId: queuedWithJob.id });
    const justCreated = await insertSwap(t.db, swapRow(account, { status: 'queued' }));

    await runMaintenance({ db: t.db, storage: t.services.storage, config: t.config, boss: t.services.boss });

    const status = async (id: string) => (await t.db.selectFrom('swaps').select(['status', 'error', 'refunded']).where('id', '=', id).executeTakeFirstOrThrow());
    expect(await status(orphaned.id)).toEqual({ status: 'failed', error: INTERNAL_FAILURE, refunded: true });
    expect((await status(queuedWithJob.id)).status).toBe('queued');
    expect((await status(justCreated.id)).status).toBe('queued');
    const events = await t.db.selectFrom('webhook_events').select(['swap_id', 'event_type']).where('swap_id', '=', orphaned.id).execute();
    expect(events).toEqual([{ swap_id: orphaned.id, event_type: 'swap.failed' }]);
    // Its upload is retired like any ended swap's: deleted, a thumbnail kept in its place.
    await expect(t.services.storage.get(targetKey)).rejects.toThrow();
    const thumbnail = await sharp(await t.services.storage.get(thumbnailKey(orphaned.id, 'target'))).metadata();
    expect([thumbnail.format, thumbnail.width]).toEqual(['jpeg', THUMBNAIL_SIZE]);
  });
});
