import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances } from '@doppel/core/accounts/credits';
import type { TestApp } from '@doppel/server/testing/app';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';

const launcherDir = path.resolve(import.meta.dirname, '../..');

let world: IntakeWorld;
let api: TestApp;
const workers: ChildProcess[] = [];

/** A separate worker process (`DOPPEL_ROLE=worker`) on the test database and files. */
function startWorkerProcess(): ChildProcess {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  // node itself, not the tsx launcher: SIGKILL must hit the process doing the work.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: launcherDir,
    env: {
      ...env,
      DATABASE_URL: api.database.url,
      DOPPEL_DATA_DIR: api.config.dataDir,
      DOPPEL_PUBLIC_URL: api.url,
      DOPPEL_ROLE: 'worker',
      DOPPEL_WORKER_THREADS: '1',
      DOPPEL_LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
  });
  workers.push(child);
  return child;
}

async function statusOf(id: string) {
  return (await api.db.selectFrom('swaps').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow());
}

beforeAll(async () => {
  // A large target keeps the swap busy long enough to be interrupted.
  const big = await sharp(demoPhoto(3)).resize({ width: 3200 }).jpeg({ quality: 90 }).toBuffer();
  world = await startIntakeWorld({ '/face.jpg': sendBytes(demoPhoto(1)), '/big.jpg': sendBytes(big) });
  api = await world.startApp({ scan: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
});

afterAll(async () => {
  for (const child of workers) if (child.exitCode === null) child.kill('SIGKILL');
  await api?.close();
  await world?.close();
});

describe('a worker killed during a swap', () => {
  it('leaves the swap to another worker, which finishes it within the documented bound, charged once', { timeout: 240_000 }, async () => {
    const account = await api.createAccount({ credits: 3 });
    const first = startWorkerProcess();
    const created = await api.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'image', source_url: world.url('/face.jpg'), target_url: world.url('/big.jpg') },
    });
    expect(created.status).toBe(201);

    for (const deadline = Date.now() + 90_000; (await statusOf(created.body.id)).status !== 'processing'; ) {
      if (Date.now() > deadline) throw new Error('the first worker never started the swap');
    }
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect((await statusOf(created.body.id)).status).toBe('processing');

    const killedAt = Date.now();
    startWorkerProcess();
    let final = await statusOf(created.body.id);
    while (!['done', 'failed'].includes(final.status)) {
      if (Date.now() - killedAt > 120_000) throw new Error(`the swap is still ${final.status}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
      final = await statusOf(created.body.id);
    }
    expect(final).toEqual({ status: 'done', error: null });
    // Heartbeat (15 s) + heartbeat check (every 10 s) + retry delay (5 s) + polling + the swap itself.
    expect(Date.now() - killedAt).toBeLessThan(90_000);
    expect((await getBalances(api.db, account.userId)).total).toBe(2);
    const charges = await api.db.selectFrom('credit_ledger').select('amount').where('swap_id', '=', created.body.id).execute();
    expect(charges).toEqual([{ amount: -1 }]);
  });
});
