import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '../../src/animation/probe-media';
import { probeVideo } from '../../src/video/probe-video';
import { readFrames } from '../../src/video/read-frames';
import { videoStills } from '../../src/video/stills';
import { lyingWebm } from '../fixtures/lying-header';

const run = promisify(execFile);

let dir: string;
let lying: Buffer;
let lyingFile: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-length-test-'));
  lyingFile = path.join(dir, 'ten-minutes.webm');
  lying = await lyingWebm(lyingFile, { seconds: 600, fps: 1, claimedSeconds: 1 });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a video's length", () => {
  it('is what its frames span, not what its header says: a "1 s" WebM that plays 10 minutes measures 600 s', async () => {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', lyingFile]);
    expect(Number(stdout)).toBe(1);

    expect(await probeMedia(lying)).toMatchObject({ kind: 'video', durationSeconds: 600, frames: 600 });
  });

  it('over the caps refuses it with media_too_large, whatever its header claims', async () => {
    await expect(probeMedia(lying, { caps: true })).rejects.toMatchObject({ reason: 'media_too_large', message: expect.stringMatching(/600\.0 s long/) });
  });

  it('stops being counted at the frame budget: the rest of the file is never read', async () => {
    const info = await probeVideo(lyingFile, { maxPackets: 10 });
    expect([info.frames, info.truncated]).toEqual([10, true]);
  });

  it('bounds decoding: frames are read only as far as the measured duration', async () => {
    const info = await probeVideo(lyingFile);
    let frames = 0;
    for await (const _ of readFrames(lyingFile, { ...info, durationSeconds: 5 })) frames++;
    expect(frames).toBeLessThanOrEqual(6);
    expect(frames).toBeGreaterThanOrEqual(5);
  });

  it('keeps the content scan from decoding a video over the caps', async () => {
    await expect(videoStills(lying)).rejects.toMatchObject({ reason: 'media_too_large' });
  });

  it('makes a video that cannot be read undecodable, a final verdict', async () => {
    await expect(videoStills(lying.subarray(0, 200))).rejects.toMatchObject({ reason: 'undecodable_input' });
  });
});
