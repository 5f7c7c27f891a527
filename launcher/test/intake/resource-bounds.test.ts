import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lyingWebm } from '@doppel/engine/fixtures/lying-header';
import { getBalances } from '@doppel/core/accounts/credits';
import type { TestApp } from '@doppel/server/testing/app';
import { scanId } from '@doppel/core/scans/content-scans';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';

let world: IntakeWorld;
let t: TestApp;
let dir: string;
let lying: Buffer;
let hugeGif: Buffer;
let hugePng: Buffer;

/** A GIF whose header (and only frame) says 16383x16383: a few dozen bytes, 1 GiB once decoded. */
function gifOfSize(side: number): Buffer {
  const [lo, hi] = [side & 0xff, side >> 8];
  return Buffer.from([
    ...Buffer.from('GIF89a'), lo, hi, lo, hi, 0x80, 0, 0, 0, 0, 0, 255, 255, 255,
    0x2c, 0, 0, 0, 0, lo, hi, lo, hi, 0, 0x02, 0x02, 0x4c, 0x01, 0x00, 0x3b,
  ]);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-bounds-test-'));
  lying = await lyingWebm(path.join(dir, 'ten-minutes.webm'), { seconds: 600, fps: 1, claimedSeconds: 1 });
  hugeGif = gifOfSize(16383);
  // 60 megapixels of one colour: small as a PNG, over the 50-megapixel limit decoded.
  hugePng = await sharp({ create: { width: 10_000, height: 6_000, channels: 3, background: '#808080' } }).png().toBuffer();
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(demoPhoto(1)),
    '/group.jpg': sendBytes(demoPhoto(2)),
    '/ten-minutes.webm': sendBytes(lying),
    '/huge.gif': sendBytes(hugeGif),
    '/huge.png': sendBytes(hugePng),
    '/damaged.webm': sendBytes(lying.subarray(0, 300)),
    '/tiny.jpg': sendBytes(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c08040' } }).jpeg().toBuffer()),
  });
  t = await world.startApp({ scan: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
  await world?.close();
  await rm(dir, { recursive: true, force: true });
});

const scanned = async (userId: string, bytes: Buffer) =>
  t.db.selectFrom('content_scans').select('sha256').where('sha256', '=', scanId(userId, bytes)).executeTakeFirst();

describe('resource bounds at create', () => {
  it('refuses a WebM whose header says 1 s but which plays 10 minutes, before scanning or charging it', async () => {
    const account = await t.createAccount({ credits: 50 });
    const res = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'video', source_url: world.url('/face.jpg'), target_url: world.url('/ten-minutes.webm') },
    });
    expect([res.status, res.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(res.body.error.message).toMatch(/^target_url: the video is too large: 600\.0 s long/);
    expect(await scanned(account.userId, lying)).toBeUndefined();
    expect((await getBalances(t.db, account.userId)).total).toBe(50);
  });

  it('refuses a 16383x16383 GIF from its header, before any frame is decoded or scanned', async () => {
    const account = await t.createAccount({ credits: 5 });
    const res = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'gif', source_url: world.url('/face.jpg'), target_url: world.url('/huge.gif') },
    });
    expect([res.status, res.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(res.body.error.message).toMatch(/16383x16383/);
    expect(await scanned(account.userId, hugeGif)).toBeUndefined();
  });

  it('refuses a 60-megapixel still for face detection from its header, storing nothing', async () => {
    const account = await t.createAccount();
    const res = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/huge.png') } });
    expect([res.status, res.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(res.body.error.message).toMatch(/10000x6000 px/);
    expect(await t.db.selectFrom('face_detect_tasks').select('id').where('api_key_id', '=', account.apiKeyId).execute()).toEqual([]);
  });

  it('refuses a 60-megapixel source image before scanning it', async () => {
    const account = await t.createAccount({ credits: 5 });
    const res = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'image', source_url: world.url('/huge.png'), target_url: world.url('/group.jpg') },
    });
    expect([res.status, res.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(res.body.error.message).toMatch(/^source_url: /);
    expect(await scanned(account.userId, hugePng)).toBeUndefined();
  });

  it('answers insufficient_credits to a key that cannot pay for the cheapest swap, without fetching anything', async () => {
    const account = await t.createAccount({ credits: 1 });
    const before = world.media.requests.length;
    const res = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'video', source_url: world.url('/face.jpg'), target_url: world.url('/ten-minutes.webm') },
    });
    expect([res.status, res.body.error.code]).toEqual([402, 'insufficient_credits']);
    expect(world.media.requests.length).toBe(before);
  });

  it('lets a key with no credits past the credit check for a GIF, which can be free', async () => {
    const account = await t.createAccount({ credits: 0 });
    const res = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'gif', source_url: world.url('/face.jpg'), target_url: world.url('/huge.gif') },
    });
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('answers unsupported_media_type for a video that cannot be decoded, at once and on a retry', async () => {
    const account = await t.createAccount({ credits: 10 });
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await t.request('/api/v1/swaps', {
        method: 'POST',
        key: account.apiKey,
        json: { type: 'video', source_url: world.url('/face.jpg'), target_url: world.url('/damaged.webm') },
      });
      expect([res.status, res.body.error.code]).toEqual([415, 'unsupported_media_type']);
    }
    expect((await getBalances(t.db, account.userId)).total).toBe(10);
  });
});

describe('beside an attacking tenant', () => {
  it("another tenant's create goes through while the attacks are refused", async () => {
    const [attacker, other] = [await t.createAccount({ credits: 50 }), await t.createAccount({ credits: 5 })];
    const create = (key: string, json: object) => t.request('/api/v1/swaps', { method: 'POST', key, json });
    const face = world.url('/face.jpg');
    const [webm, gif, png, swap] = await Promise.all([
      create(attacker.apiKey, { type: 'video', source_url: face, target_url: world.url('/ten-minutes.webm') }),
      create(attacker.apiKey, { type: 'gif', source_url: face, target_url: world.url('/huge.gif') }),
      create(attacker.apiKey, { type: 'image', source_url: world.url('/huge.png'), target_url: world.url('/group.jpg') }),
      create(other.apiKey, { type: 'image', source_url: face, target_url: world.url('/group.jpg') }),
    ]);
    expect([webm, gif, png].map((res) => res.body.error.code)).toEqual(['payload_too_large', 'payload_too_large', 'payload_too_large']);
    expect([swap.status, swap.body.status]).toEqual([201, 'queued']);
    expect((await getBalances(t.db, attacker.userId)).total).toBe(50);
  });
});

describe('the intake budget', () => {
  let small: TestApp;
  beforeAll(async () => {
    // Less than one demo photo (each over 100 KB); a generated 64x64 JPEG fits.
    small = await world.startApp({ shareWith: t, env: { DOPPEL_INTAKE_BUDGET_BYTES: '100000', DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(() => small?.close());

  it('answers api_temporarily_disabled with Retry-After when a create would hold more media than the process allows', async () => {
    const account = await small.createAccount({ credits: 5 });
    const res = await small.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'image', source_url: world.url('/face.jpg'), target_url: world.url('/group.jpg') },
    });
    expect([res.status, res.body.error.code, res.headers.get('retry-after')]).toEqual([503, 'api_temporarily_disabled', '5']);
    expect((await getBalances(small.db, account.userId)).total).toBe(5);
    expect(small.app.deps.intakeBudget.inUse).toBe(0);
  });

  it('gives every byte back when a create ends, so the next one fits', async () => {
    const account = await small.createAccount();
    for (let i = 0; i < 3; i++) {
      const res = await small.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/tiny.jpg') } });
      expect(res.status).toBe(202);
    }
    expect(small.app.deps.intakeBudget.inUse).toBe(0);
  });
});
