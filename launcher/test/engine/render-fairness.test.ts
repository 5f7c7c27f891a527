import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ComputePool, DEFAULT_SCAN_THRESHOLDS } from '@doppel/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeOnPool } from '@doppel/worker';
import type { TestApp } from '@doppel/server/testing/app';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { finishedSwap } from '@doppel/server/testing/poll';

const run = promisify(execFile);

let world: IntakeWorld;
let pool: ComputePool;
let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-fairness-'));
  // Forty seconds of three faces (demo photo 1, still): a render of a minute or more on this
  // machine, where an image swap takes a second or two.
  await writeFile(path.join(dir, 'photo.jpg'), demoPhoto(1));
  await run('ffmpeg', [
    '-v', 'error', '-loop', '1', '-i', path.join(dir, 'photo.jpg'), '-t', '40', '-r', '25',
    '-vf', 'scale=640:-2', '-pix_fmt', 'yuv420p', '-y', path.join(dir, 'long.mp4'),
  ]);
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(demoPhoto(2)),
    '/group.jpg': sendBytes(demoPhoto(4)),
    '/long.mp4': sendBytes(await readFile(path.join(dir, 'long.mp4'))),
  });
  // Two swap slots and two render threads: the smallest engine that can be shared at all.
  pool = new ComputePool({ threads: 2 });
  t = await world.startApp({
    compute: computeOnPool(pool, DEFAULT_SCAN_THRESHOLDS),
    env: { DOPPEL_WORKER_CONCURRENCY: '2', DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' },
  });
}, 120_000);

afterAll(async () => {
  // The render still running is cut off with its threads; the app then stops at once.
  await pool?.destroy();
  await t?.close();
  await world?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('renders of one user', () => {
  it("never hold every swap slot: another user's image swap finishes while they are still queued", { timeout: 300_000 }, async () => {
    const a = await t.createAccount({ credits: 100 });
    const b = await t.createAccount({ credits: 5 });
    const renders: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await t.request('/api/v1/swaps', {
        method: 'POST',
        key: a.apiKey,
        json: { type: 'video', source_url: world.url('/face.jpg'), target_url: world.url('/long.mp4'), target_face_index: 0 },
      });
      expect(created.status).toBe(201);
      renders.push(created.body.id);
    }

    const swap = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: b.apiKey,
      json: { type: 'image', source_url: world.url('/face.jpg'), target_url: world.url('/group.jpg') },
    });
    expect(swap.status).toBe(201);
    expect((await finishedSwap(t, b.apiKey, swap.body.id)).status).toBe('done');

    // One of A's renders has the one slot A may hold; the others have not started.
    const statuses = await t.db.selectFrom('swaps').select('status').where('id', 'in', renders).execute();
    expect(statuses.map((s) => s.status).sort()).toEqual(['processing', 'queued', 'queued']);

    for (const id of renders) await t.request(`/api/v1/swaps/${id}`, { method: 'DELETE', key: a.apiKey });
  });
});
