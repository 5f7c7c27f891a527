import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances } from '@doppel/core/accounts/credits';
import { panGif, panVideo, type Pan } from '@doppel/engine/fixtures/pan-clip';
import type { TestApp } from '@doppel/server/testing/app';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { finishedSwap } from '@doppel/server/testing/poll';

const run = promisify(execFile);

let world: IntakeWorld;
let t: TestApp;
let dir: string;
let gif: Buffer;
let video: Buffer;
let wideVideo: Buffer;

const PAN: Pan = { width: 320, height: 240, frames: 8, fromX: 100, toX: 140, y: 60, zoom: 1.05 };

async function probe(bytes: Buffer) {
  const file = path.join(dir, `probe-${Math.random()}`);
  await writeFile(file, bytes);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', file]);
  return JSON.parse(stdout) as { streams: { codec_type: string; width?: number; height?: number; r_frame_rate?: string }[]; format: { duration: string } };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-animated-'));
  gif = await panGif(PAN, Array(PAN.frames).fill(120), 0);
  await panVideo({ ...PAN, frames: 24 }, 12, path.join(dir, 'clip.mp4'), true);
  video = await readFile(path.join(dir, 'clip.mp4'));
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=2400x128:rate=10:duration=1', '-pix_fmt', 'yuv420p', '-y', path.join(dir, 'wide.mp4')]);
  wideVideo = await readFile(path.join(dir, 'wide.mp4'));
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(demoPhoto(4)),
    '/clip.gif': sendBytes(gif),
    '/clip.mp4': sendBytes(video),
    '/wide.mp4': sendBytes(wideVideo),
  });
  t = await world.startApp({ engine: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
});

afterAll(async () => {
  await t?.close();
  await world?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a GIF swap', () => {
  it('ends done with a GIF of the same size, frame count and delays', { timeout: 300_000 }, async () => {
    const account = await t.createAccount({ credits: 5 });
    const created = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'gif', source_url: world.url('/face.jpg'), target_url: world.url('/clip.gif'), target_face_index: 0 },
    });
    expect([created.status, created.body.credit_cost]).toEqual([201, 0]);
    const done = await finishedSwap(t, account.apiKey, created.body.id);
    expect(done).toMatchObject({ status: 'done', progress: 100 });
    expect(done.result_url).toMatch(/\.gif$/);
    const result = Buffer.from(await (await fetch(done.result_url!)).arrayBuffer());
    const before = await sharp(gif, { animated: true }).metadata();
    const after = await sharp(result, { animated: true }).metadata();
    expect([after.format, after.width, after.pageHeight, after.pages]).toEqual(['gif', before.width, before.pageHeight, before.pages]);
    expect(after.delay).toEqual(before.delay);
  });
});

describe('a video swap', () => {
  it('ends done with an H.264 MP4 of the same size and length, audio kept', { timeout: 300_000 }, async () => {
    const account = await t.createAccount({ credits: 10 });
    const created = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'video', source_url: world.url('/face.jpg'), target_url: world.url('/clip.mp4'), target_face_index: 0 },
    });
    expect(created.status).toBe(201);
    expect(created.body.credit_cost).toBe(2);
    const done = await finishedSwap(t, account.apiKey, created.body.id);
    expect(done.status).toBe('done');
    expect(done.result_url).toMatch(/\.mp4$/);
    const result = await probe(Buffer.from(await (await fetch(done.result_url!)).arrayBuffer()));
    const source = await probe(video);
    const v = result.streams.find((s) => s.codec_type === 'video')!;
    const sv = source.streams.find((s) => s.codec_type === 'video')!;
    expect([v.width, v.height, v.r_frame_rate]).toEqual([sv.width, sv.height, sv.r_frame_rate]);
    expect(Math.abs(Number(result.format.duration) - Number(source.format.duration))).toBeLessThan(1 / 12 + 0.05);
    expect(result.streams.some((s) => s.codec_type === 'audio')).toBe(true);
    expect((await getBalances(t.db, account.userId)).total).toBe(8);
  });

  it('drops the audio when keep_audio is false', { timeout: 300_000 }, async () => {
    const account = await t.createAccount({ credits: 10 });
    const created = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'video', source_url: world.url('/face.jpg'), target_url: world.url('/clip.mp4'), keep_audio: false },
    });
    const done = await finishedSwap(t, account.apiKey, created.body.id);
    expect(done.status).toBe('done');
    const result = await probe(Buffer.from(await (await fetch(done.result_url!)).arrayBuffer()));
    expect(result.streams.some((s) => s.codec_type === 'audio')).toBe(false);
  });

  it('refuses at create a video over the resolution cap, and a frame time past its end', async () => {
    const account = await t.createAccount({ credits: 10 });
    const wide = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'video', source_url: world.url('/face.jpg'), target_url: world.url('/wide.mp4') },
    });
    expect([wide.status, wide.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(wide.body.error.message).toMatch(/2400x128/);

    const late = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: {
        type: 'video',
        target_url: world.url('/clip.mp4'),
        face_swaps: [{ frame_time_seconds: 30, face_index: 0, source_url: world.url('/face.jpg') }],
      },
    });
    expect([late.status, late.body.error.code]).toEqual([400, 'validation_error']);
    expect(late.body.error.message).toMatch(/^face_swaps\[0\]\.frame_time_seconds/);
    expect((await getBalances(t.db, account.userId)).total).toBe(10);
  });
});
