import { claimScan, recordScan, scanId } from '@doppel/core/scans/content-scans';
import { scanKey } from '@doppel/core/storage/keys';
import { createTestDatabase, type TestDatabase } from '@doppel/core/testing/database';
import { startDohServer, type DohServer } from '@doppel/core/testing/doh-server';
import type { TestAccount } from '@doppel/server/testing/app';
import { demoPhoto, TEST_NAMES } from './intake-world';
import { startMediaServer, type MediaRoute, type MediaServer } from '@doppel/core/testing/media-server';
import { createProcessWorld, type ProcessWorld } from './server-process';
import { createTestCa } from '@doppel/core/testing/test-ca';

export interface ProcessIntake {
  database: TestDatabase;
  media: MediaServer;
  world: ProcessWorld;
  /** `https://media.test:<port><path>`. */
  url(path: string): string;
  /** An account with credits, for whom the demo photos are already scanned clean. */
  createAccount(options?: { credits?: number }): Promise<TestAccount>;
  /** POST /swaps of an image swap from `/face.jpg` onto `target`, as a client would send it. */
  create(
    serverUrl: string,
    apiKey: string,
    target: string,
    headers?: Record<string, string>,
    query?: Record<string, string>,
  ): Promise<{ status: number; body: { id: string } }>;
  close(): Promise<void>;
}

/**
 * What server processes need to create swaps: a database of their own, the loopback media
 * server and DoH resolver on the test CA (trusted through NODE_EXTRA_CA_CERTS), and accounts with
 * clean scan verdicts for the demo photos, so creates never wait on a content scanner.
 */
export async function startProcessIntake(routes: Record<string, MediaRoute>, env: Record<string, string> = {}): Promise<ProcessIntake> {
  const database = await createTestDatabase();
  const media = await startMediaServer({ routes });
  const doh: DohServer = await startDohServer({ answers: TEST_NAMES });
  const world = await createProcessWorld(database, {
    ca: (await createTestCa()).certPem,
    env: { DOPPEL_DOH_URLS: doh.url, DOPPEL_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', DOPPEL_WORKER_THREADS: '1', DOPPEL_RATE_LIMIT_PER_MINUTE: '1000', ...env },
  });
  const url = (path: string) => media.url('media.test', path);
  return {
    database,
    media,
    world,
    url,
    async createAccount(options) {
      const account = await world.createAccount(database, options);
      // Verdicts are kept per user: each account gets its own.
      for (const n of [1, 2, 3, 4, 5, 6] as const) {
        const sha256 = scanId(account.userId, demoPhoto(n));
        await database.db.transaction().execute((trx) => claimScan(trx, { sha256, kind: 'jpeg', storageKey: scanKey(sha256, 'jpeg') }));
        await recordScan(database.db, sha256, { status: 'clean', reason: null });
      }
      return account;
    },
    create: (serverUrl, apiKey, target, headers = {}, query = {}) =>
      fetch(`${serverUrl}/api/v1/swaps?${new URLSearchParams(query)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ type: 'image', source_url: url('/face.jpg'), target_url: url(target) }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { id: string } })),
    async close() {
      await media.close();
      await doh.close();
      await world.close();
      await database.close();
    },
  };
}
