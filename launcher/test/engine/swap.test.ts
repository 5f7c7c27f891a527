import { THUMBNAIL_SIZE } from '@doppel/engine';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances } from '@doppel/core/accounts/credits';
import type { TestApp } from '@doppel/server/testing/app';
import { createImageSwap } from '../support/image-swap';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { eventually, finishedDetection, finishedSwap, stored } from '@doppel/server/testing/poll';
import { thumbnailKey } from '@doppel/core/storage/keys';

let world: IntakeWorld;
let t: TestApp;
let groupPng: Buffer;
let landscape: Buffer;

async function pixels(image: Buffer) {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

beforeAll(async () => {
  groupPng = await sharp(demoPhoto(2)).png().toBuffer();
  landscape = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#3a7bd5' } }).jpeg().toBuffer();
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(demoPhoto(1)),
    '/face2.jpg': sendBytes(demoPhoto(4)),
    '/group.jpg': sendBytes(demoPhoto(2)),
    '/group.png': sendBytes(groupPng),
    '/landscape.jpg': sendBytes(landscape),
  });
  t = await world.startApp({ engine: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
  await world?.close();
});

describe('an image swap', () => {
  it('ends done with a public result of the target size, its progress rising to 100', async () => {
    const account = await t.createAccount({ credits: 3 });
    const created = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'image', source_url: world.url('/face.jpg'), target_url: world.url('/group.jpg'), enable_face_enhancer: true },
    });
    expect(created.status).toBe(201);
    const seen: number[] = [];
    const done = await finishedSwap(t, account.apiKey, created.body.id, (s) => seen.push(s.progress));
    expect(done).toMatchObject({ status: 'done', progress: 100, error: null });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(done.result_url).toMatch(new RegExp(`^${t.url}/files/results/[A-Za-z0-9_-]+/${done.id}\\.jpg$`));

    const result = await fetch(done.result_url!);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await result.arrayBuffer())).metadata();
    const target = await sharp(demoPhoto(2)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', target.width, target.height]);
    expect((await getBalances(t.db, account.userId)).total).toBe(2);
  });

  it('retires its uploads once it has ended: thumbnails of the target and the source stay, the inputs go', async () => {
    const { account, id } = await createImageSwap(t, world, 1);
    expect((await finishedSwap(t, account.apiKey, id)).status).toBe('done');
    const row = await t.db.selectFrom('swaps').select('inputs').where('id', '=', id).executeTakeFirstOrThrow();
    const { target, sources } = row.inputs as { target: { key: string }; sources: { key: string }[] };
    await eventually('the uploads are deleted', async () => !(await stored(t, target.key)) && !(await stored(t, sources[0]!.key)));
    for (const [role, photo] of [['target', demoPhoto(2)], ['source1', demoPhoto(1)]] as const) {
      const thumbnail = await sharp(await t.services.storage.get(thumbnailKey(id, role))).metadata();
      const original = await sharp(photo).metadata();
      expect(thumbnail.format).toBe('jpeg');
      expect(Math.max(thumbnail.width, thumbnail.height)).toBe(THUMBNAIL_SIZE);
      expect(thumbnail.width / thumbnail.height).toBeCloseTo(original.width / original.height, 1);
    }
  });

  it('replaces only the named faces of a multi-face swap', async () => {
    const account = await t.createAccount({ credits: 3 });
    const detected = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/group.png') } });
    const faces = (await finishedDetection(t, account.apiKey, detected.body.task_id)).faces!;
    expect(faces.length).toBeGreaterThanOrEqual(3);

    const created = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: {
        type: 'multi_face_image',
        target_url: world.url('/group.png'),
        face_swaps: [
          { face_index: 0, source_url: world.url('/face.jpg') },
          { face_index: 2, source_url: world.url('/face2.jpg') },
        ],
      },
    });
    const done = await finishedSwap(t, account.apiKey, created.body.id);
    expect(done.status).toBe('done');

    const before = await pixels(groupPng);
    const after = await pixels(Buffer.from(await (await fetch(done.result_url!)).arrayBuffer()));
    const changedIn = (box: { x: number; y: number; width: number; height: number }) => {
      let changed = 0;
      for (let y = Math.floor(box.y); y < Math.ceil(box.y + box.height); y++) {
        for (let x = Math.floor(box.x); x < Math.ceil(box.x + box.width); x++) {
          const i = (y * before.width + x) * 3;
          if (before.data[i] !== after.data[i] || before.data[i + 1] !== after.data[i + 1] || before.data[i + 2] !== after.data[i + 2]) changed++;
        }
      }
      return changed / (box.width * box.height);
    };
    expect(changedIn(faces[0]!.bounding_box)).toBeGreaterThan(0.2);
    expect(changedIn(faces[2]!.bounding_box)).toBeGreaterThan(0.2);
    expect(changedIn(faces[1]!.bounding_box)).toBe(0);
  });

  it.each([
    ['the target has no face', { target_url: '/landscape.jpg' }, /no face/i],
    ['the source has no face', { source_url: '/landscape.jpg' }, /no face/i],
    ['target_face_index is out of range', { target_face_index: 40 }, /out of range.*\d+ faces/i],
  ])('ends failed and refunded when %s', async (_name, change, reason) => {
    const account = await t.createAccount({ credits: 2 });
    const body: Record<string, unknown> = { type: 'image', source_url: world.url('/face.jpg'), target_url: world.url('/group.jpg') };
    for (const [field, value] of Object.entries(change)) body[field] = typeof value === 'string' ? world.url(value) : value;
    const created = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: body });
    expect(created.status).toBe(201);
    const failed = await finishedSwap(t, account.apiKey, created.body.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(reason);
    expect(failed.result_url).toBeNull();
    expect((await getBalances(t.db, account.userId)).total).toBe(2);
  });
});

describe('cancel before pick-up', () => {
  it('wins, refunds, and the worker then skips the task', async () => {
    const api = await world.startApp({ shareWith: t, scan: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
    try {
      // No swap worker runs while the swap is created and canceled.
      await t.services.boss.offWork('swap', { wait: true });
      const { account, id } = await createImageSwap(api, world);
      const canceled = await api.request(`/api/v1/swaps/${id}`, { method: 'DELETE', key: account.apiKey });
      expect([canceled.status, canceled.body.status]).toEqual([200, 'canceled']);
      expect((await getBalances(api.db, account.userId)).total).toBe(2);

      const [job] = await t.services.boss.findJobs('swap', { data: { swapId: id } });
      expect(job).toBeDefined();
      // A worker comes back and processes the queue: the canceled swap's job completes without touching it.
      const restarted = await world.startApp({ shareWith: t, engine: true });
      try {
        for (const deadline = Date.now() + 60_000; ; ) {
          const [state] = await t.services.boss.findJobs('swap', { id: job!.id });
          if (state?.state === 'completed') break;
          if (Date.now() > deadline) throw new Error(`the job is still ${state?.state}`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      } finally {
        await restarted.close();
      }
      const after = await api.request(`/api/v1/swaps/${id}`, { key: account.apiKey });
      expect(after.body).toMatchObject({ status: 'canceled', result_url: null, progress: 0 });
      const row = await t.db.selectFrom('swaps').select('inputs').where('id', '=', id).executeTakeFirstOrThrow();
      expect(await stored(t, (row.inputs as { target: { key: string } }).target.key)).toBe(false);
      expect((await getBalances(api.db, account.userId)).total).toBe(2);
    } finally {
      await api.close();
    }
  });
});
