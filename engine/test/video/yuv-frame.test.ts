import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo } from '../../src/video/probe-video';
import { readFrames } from '../../src/video/read-frames';
import { openEncoder } from '../../src/video/write-frames';
import { evenSide, yuv420 } from '../../src/video/yuv-frame';

const run = promisify(execFile);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-yuv-frame-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** ffmpeg's own conversion of raw frames from one pixel format to another. */
async function ffmpegConvert(input: Uint8Array, from: string, to: string, width: number, height: number): Promise<Buffer> {
  const child = spawn('ffmpeg', ['-v', 'error', '-f', 'rawvideo', '-pix_fmt', from, '-s', `${width}x${height}`, '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', to, 'pipe:1'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stdin.end(input);
  await once(child, 'close');
  return Buffer.concat(chunks);
}

/** The conversion as a plain loop: ffmpeg's luma, each chroma sample its 2x2 block's mean, odd sides padded black. */
function reference(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const [w, h] = [evenSide(width), evenSide(height)];
  const at = (x: number, y: number, k: number) => (x < width && y < height ? rgb[(y * width + x) * 3 + k]! : 0);
  const out = new Uint8Array((w * h * 3) / 2);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out[y * w + x] = (8414 * at(x, y, 0) + 16519 * at(x, y, 1) + 3208 * at(x, y, 2) + 540928) >> 15;
  for (let y = 0; y < h / 2; y++) {
    for (let x = 0; x < w / 2; x++) {
      const sum = (k: number) => at(2 * x, 2 * y, k) + at(2 * x + 1, 2 * y, k) + at(2 * x, 2 * y + 1, k) + at(2 * x + 1, 2 * y + 1, k);
      const [r, g, b] = [sum(0), sum(1), sum(2)];
      out[w * h + y * (w / 2) + x] = (-4857 * r - 9535 * g + 14392 * b + 16842752) >> 17;
      out[w * h + (w * h) / 4 + y * (w / 2) + x] = (14392 * r - 12052 * g - 2340 * b + 16842752) >> 17;
    }
  }
  return out;
}

/** Bytes that vary in every channel and position (a fixed sequence, no seed to keep). */
function patterned(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = 12345;
  for (let i = 0; i < length; i++) bytes[i] = (state = (state * 1103515245 + 12345) >>> 0) >>> 24;
  return bytes;
}

describe('frames converted to yuv420p for the encoder', () => {
  // A photo's colours change over a few pixels; at a hard colour edge ffmpeg's bicubic filter
  // (negative lobes) and the block's mean differ by more (16 levels on the test pattern's bars).
  it("give ffmpeg's own luma to the bit, and chroma within 2 levels of its conversion on a soft picture", async () => {
    const [width, height] = [320, 180];
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}`, '-vf', 'gblur=sigma=3', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer' });
    const rgb = new Uint8Array(stdout);
    const ours = yuv420(rgb, width, height);
    const theirs = await ffmpegConvert(rgb, 'rgb24', 'yuv420p', width, height);
    const pixels = width * height;
    expect(Buffer.from(ours.subarray(0, pixels)).equals(theirs.subarray(0, pixels))).toBe(true);
    const chroma = Array.from(ours.subarray(pixels), (value, i) => Math.abs(value - theirs[pixels + i]!));
    expect(Math.max(...chroma)).toBeLessThanOrEqual(2);
  });

  it('match a plain loop value for value, in the eight-column steps and the columns after them', () => {
    for (const [width, height] of [[166, 40], [8, 2], [6, 4]] as const) {
      const rgb = patterned(width * height * 3);
      expect(Array.from(yuv420(rgb, width, height)), `${width}x${height}`).toEqual(Array.from(reference(rgb, width, height)));
    }
  });

  it('give a frame of odd sides a black column on its right and a black row at its bottom', () => {
    const [width, height] = [165, 37];
    const rgb = patterned(width * height * 3);
    const planes = yuv420(rgb, width, height);
    expect(planes.length).toBe((166 * 38 * 3) / 2);
    expect(Array.from(planes)).toEqual(Array.from(reference(rgb, width, height)));
    // Black is luma 16 on the added column and row.
    expect(planes[165]).toBe(16);
    expect(planes[37 * 166 + 10]).toBe(16);
  });

  // The last rows and columns share their chroma with the black added beside them (and the
  // decoder's chroma upsampling reaches a row or two further), as they did when ffmpeg padded the
  // frame itself: they are left out.
  it('are encoded at the padded size, the picture itself as it was', async () => {
    const [width, height] = [165, 95];
    const output = path.join(dir, 'odd.mp4');
    const encoder = openEncoder({ output, width, height, frameRate: '25' });
    const rgb = new Uint8Array(width * height * 3);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgb.set([(x * 255) / width, (y * 255) / height, 128], (y * width + x) * 3);
    for (let i = 0; i < 3; i++) await encoder.write(rgb);
    await encoder.finish();
    const video = await probeVideo(output);
    expect([video.width, video.height]).toEqual([166, 96]);
    let frames = 0;
    for await (const frame of readFrames(output, video)) {
      frames++;
      let worst = 0;
      for (let y = 0; y < height - 4; y++) for (let x = 0; x < width - 4; x++) for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(frame.rgb[(y * 166 + x) * 3 + k]! - rgb[(y * width + x) * 3 + k]!));
      expect(worst).toBeLessThan(12);
    }
    expect(frames).toBe(3);
  });
});
