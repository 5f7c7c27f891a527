import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '../../src/animation/probe-media';
import { swapVideoOnPool } from '../../src/animation/run-on-pool';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import type { Box } from '../../src/faces/face-order';
import { faceDistance } from '../../src/faces/face-distance';
import { loadHuman } from '../../src/faces/human';
import { ComputePool } from '../../src/pool/compute-pool';
import { probeVideo } from '../../src/video/probe-video';
import { readFrames } from '../../src/video/read-frames';
import { swapVideo } from '../../src/video/swap-video';
import { demoPhoto, faceOnFrame, panVideo, personAt, type Pan, type Person } from '../fixtures/pan-clip';

const run = promisify(execFile);

/** The states ('R', 'S', 'Z', ...) of this process's ffmpeg children, from /proc. */
async function ffmpegChildren(): Promise<string[]> {
  const states: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // pid (comm) state ppid ...: comm may hold spaces, so the fields are read after its closing parenthesis.
    const match = /^\d+ \((.*)\) (\S) (\d+)/s.exec(stat);
    if (match && match[1] === 'ffmpeg' && Number(match[3]) === process.pid) states.push(match[2]!);
  }
  return states;
}

// 2 s at 25 fps: A and B at first, B and C at the end (A leaves on the left, C enters on the right).
const PAN: Pan = { width: 640, height: 360, frames: 50, fromX: 100, toX: 320, y: 120, zoom: 1.1 };
const FPS = 25;

let dir: string;
let clip: string;

beforeAll(async () => {
  await loadHuman();
  dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-video-test-'));
  clip = path.join(dir, 'pan.mp4');
  await panVideo(PAN, FPS, clip, true);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Sampled = { image: RgbImage; faces: { person: Person; face: Face }[] };

/** The frames at `indices` of a video. */
async function imagesAt(file: string, indices: number[]): Promise<Map<number, RgbImage>> {
  const out = new Map<number, RgbImage>();
  let index = 0;
  for await (const image of readFrames(file, await probeVideo(file))) {
    if (indices.includes(index)) out.set(index, image);
    index++;
  }
  return out;
}

/** The frames at `indices` of a video, with their faces (and descriptors) and who each one is. */
async function framesAt(file: string, indices: number[]): Promise<Map<number, Sampled>> {
  const out = new Map<number, Sampled>();
  for (const [index, image] of await imagesAt(file, indices)) {
    const faces = await detectFaces(image, { descriptors: true });
    out.set(index, { image, faces: faces.map((face) => ({ person: personAt(PAN, index, face.box.x + face.box.width / 2), face })) });
  }
  return out;
}

/** The middle of a person's head box (the pan's layout runs from the hair to the neck): the face's own pixels. */
const middleOf = (box: Box): Box => ({ x: box.x + 0.2 * box.width, y: box.y + 0.3 * box.height, width: 0.6 * box.width, height: 0.4 * box.height });

/** The part of a box inside the frame, in whole pixels. */
function onScreen(box: Box): Box {
  const [left, top] = [Math.max(0, Math.round(box.x)), Math.max(0, Math.round(box.y))];
  const [right, bottom] = [Math.min(PAN.width, Math.round(box.x + box.width)), Math.min(PAN.height, Math.round(box.y + box.height))];
  return { x: left, y: top, width: right - left, height: bottom - top };
}

function meanPixelChange(a: RgbImage, b: RgbImage, box: Box): number {
  let sum = 0;
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) for (let k = 0; k < 3; k++) sum += Math.abs(a.rgb[(y * a.width + x) * 3 + k]! - b.rgb[(y * a.width + x) * 3 + k]!);
  }
  return sum / (box.width * box.height * 3);
}

/**
 * Per sampled frame and input face: how far the output's face there moved in identity
 * (descriptor distance; null when the detector no longer finds that person) and in pixels (mean
 * absolute change over the face box).
 */
async function changes(output: string, indices: number[]) {
  const [before, after] = [await framesAt(clip, indices), await framesAt(output, indices)];
  return indices.flatMap((index) =>
    before.get(index)!.faces.map(({ person, face }) => {
      const found = after.get(index)!.faces.find((other) => other.person === person)?.face;
      const identity = found ? faceDistance(found.descriptor!, face.descriptor!) : null;
      return { index, person, identity, pixels: meanPixelChange(before.get(index)!.image, after.get(index)!.image, face.box) };
    }),
  );
}

/**
 * A swapped face is found again, moved away from its person (identity change above 4), and its
 * pixels change a lot; an untouched face changes only by the second H.264 encoding (under 5 levels
 * per channel: its descriptor can then move by up to ~4 on a face cut by the frame edge, and the
 * detector can lose it beside a new, larger face, so pixels decide).
 */
const swapped = ({ identity, pixels }: { identity: number | null; pixels: number }) => identity !== null && identity > 4 && pixels > 10;
const untouched = ({ pixels }: { pixels: number }) => pixels < 5;

const hasAudio = async (file: string) => (await run('ffprobe', ['-v', 'error', '-select_streams', 'a', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', file])).stdout.trim() !== '';

describe('video swap', () => {
  it('keeps size, frame rate and duration (within a frame), with the audio, reporting progress by frames', async () => {
    const output = path.join(dir, 'with-audio.mp4');
    const progress: number[] = [];
    const result = await swapVideo({ input: clip, output, source: await demoPhoto(2), targetFaceIndex: 1, onProgress: (percent) => progress.push(percent) });
    const [before, after] = [await probeVideo(clip), await probeVideo(output)];
    expect({ width: after.width, height: after.height, fps: after.fps }).toEqual({ width: 640, height: 360, fps: FPS });
    expect(Math.abs(after.durationSeconds - before.durationSeconds)).toBeLessThanOrEqual(1 / FPS);
    expect(await hasAudio(output)).toBe(true);
    expect(result).toMatchObject({ width: 640, height: 360, fps: FPS, frames: PAN.frames, hasAudio: true });
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const moved = await changes(output, [0, 24, 49]);
    for (const face of moved) expect(face, `${face.person} on frame ${face.index}`).toSatisfy(face.person === 'B' ? swapped : untouched);
  });

  it('drops the audio when keepAudio is false (run on the compute pool, from file to file)', async () => {
    const pool = new ComputePool({ threads: 1 });
    try {
      const output = path.join(dir, 'silent.mp4');
      const progress: number[] = [];
      const result = await swapVideoOnPool(pool, { input: clip, output, source: await demoPhoto(2), keepAudio: false }, (percent) => progress.push(percent));
      expect(result.hasAudio).toBe(false);
      expect(await hasAudio(output)).toBe(false);
      expect(progress.at(-1)).toBe(100);
    } finally {
      await pool.destroy();
    }
  });

  it('swaps two people at once with face_swaps, each named on its own frame, and leaves the third', async () => {
    const output = path.join(dir, 'two.mp4');
    await swapVideo({
      input: await readFile(clip),
      output,
      faceSwaps: [
        { frameTimeSeconds: 0, faceIndex: 0, source: await demoPhoto(2) },
        { frameTimeSeconds: 1.9, faceIndex: 1, source: await demoPhoto(4) },
      ],
    });
    const moved = await changes(output, [2, 45]);
    expect(moved.map((face) => `${face.index}${face.person}`).sort()).toEqual(['2A', '2B', '45B', '45C']);
    for (const face of moved) expect(face, `${face.person} on frame ${face.index}`).toSatisfy(face.person === 'B' ? untouched : swapped);
  });

  it('measures a clip for the server, and refuses one over the caps before any frame is read', async () => {
    const measured = { kind: 'video', width: 640, height: 360, frames: PAN.frames, fps: FPS, hasAudio: true };
    expect(await probeMedia(clip)).toMatchObject(measured);
    expect(await probeMedia(await readFile(clip))).toMatchObject(measured);
    expect((await probeMedia(clip)).durationSeconds).toBeCloseTo(2, 1);
    const output = path.join(dir, 'refused.mp4');
    await expect(swapVideo({ input: clip, output, source: await demoPhoto(2), caps: { maxDurationSeconds: 1, maxWidth: 1920, maxHeight: 1080, maxFps: 60 } })).rejects.toMatchObject({
      reason: 'media_too_large',
      message: 'video is too large: 2.0 s long (at most 1 s)',
    });
    await expect(stat(output)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(probeMedia(clip, { caps: { video: { maxDurationSeconds: 120, maxWidth: 320, maxHeight: 240, maxFps: 60 } } })).rejects.toMatchObject({
      reason: 'media_too_large',
      message: 'video is too large: 640x360 px (at most 320x240)',
    });
  });

  it('fails with ffmpeg_unavailable when ffmpeg cannot be run', async () => {
    const saved = process.env.DOPPEL_FFMPEG_PATH;
    process.env.DOPPEL_FFMPEG_PATH = '/nonexistent/ffmpeg';
    try {
      await expect(swapVideo({ input: clip, output: path.join(dir, 'none.mp4'), source: await demoPhoto(2) })).rejects.toMatchObject({
        reason: 'ffmpeg_unavailable',
        message: 'video processing needs /nonexistent/ffmpeg, which cannot be run (not found): install ffmpeg or set DOPPEL_FFMPEG_PATH',
      });
    } finally {
      if (saved === undefined) delete process.env.DOPPEL_FFMPEG_PATH;
      else process.env.DOPPEL_FFMPEG_PATH = saved;
    }
  });

  describe('without a reference time, on a clip opening on 1 s of blank frames', () => {
    // 25 blank frames, then 25 of the pan: A and B from 1 s on. Frames are looked at every 0.5 s
    // (every 13th at 25 fps): the first with a face is frame 26, at 1.04 s.
    const LEAD: Pan = { ...PAN, frames: 25, lead: 25 };
    let opening: string;
    beforeAll(async () => {
      opening = path.join(dir, 'opening.mp4');
      await panVideo(LEAD, FPS, opening, false);
    });

    it('picks the person on the first frame with a face, and names that frame', async () => {
      await expect(swapVideo({ input: opening, output: path.join(dir, 'no-such-face.mp4'), source: await demoPhoto(2), targetFaceIndex: 4 })).rejects.toMatchObject({
        reason: 'face_index_out_of_range',
        message: 'face index 4 is out of range: the frame at 1.04 s (the first with a face) has 2 faces (0-1)',
      });
      const output = path.join(dir, 'opening-swapped.mp4');
      await swapVideo({ input: opening, output, source: await demoPhoto(2), targetFaceIndex: 1 });
      const [before, after] = [await imagesAt(opening, [10, 30, 45]), await imagesAt(output, [10, 30, 45])];
      expect(meanPixelChange(before.get(10)!, after.get(10)!, { x: 0, y: 0, width: PAN.width, height: PAN.height }), 'blank frame 10').toBeLessThan(2);
      for (const index of [30, 45]) {
        const [b, a] = [before.get(index)!, after.get(index)!];
        expect(meanPixelChange(b, a, onScreen(middleOf(faceOnFrame(LEAD, index - 25, 'B')))), `B on frame ${index}`).toBeGreaterThan(10);
        expect(meanPixelChange(b, a, onScreen(faceOnFrame(LEAD, index - 25, 'A'))), `A on frame ${index}`).toBeLessThan(5);
      }
    });

    it('refuses the blank frame when it is named, and a clip with no face at all', async () => {
      await expect(swapVideo({ input: opening, output: path.join(dir, 'named.mp4'), source: await demoPhoto(2), referenceFrameTimeSeconds: 0 })).rejects.toMatchObject({
        reason: 'no_face_in_target',
        message: 'no face found on the frame at 0 s',
      });
      const blank = path.join(dir, 'blank.mp4');
      await panVideo({ ...PAN, frames: 0, lead: 25 }, FPS, blank, false);
      await expect(swapVideo({ input: blank, output: path.join(dir, 'blank-swapped.mp4'), source: await demoPhoto(2) })).rejects.toMatchObject({
        reason: 'no_face_in_target',
        message: 'no face found on any frame of the video (looked at every 0.5 s)',
      });
    });
  });

  it('refuses a frame time outside the video', async () => {
    await expect(swapVideo({ input: clip, output: path.join(dir, 'late.mp4'), faceSwaps: [{ frameTimeSeconds: 5, faceIndex: 0, source: await demoPhoto(2) }] })).rejects.toMatchObject({
      reason: 'frame_time_out_of_range',
    });
  });
});

/** Mean absolute difference over the frame's bottom rows: bodies and background, never a face. */
function backgroundChange(a: RgbImage, b: RgbImage): number {
  return meanPixelChange(a, b, { x: 0, y: 300, width: a.width, height: a.height - 300 });
}

describe('video swap on a pool of two render threads', () => {
  let pool: ComputePool;
  beforeAll(() => {
    pool = new ComputePool({ threads: 2 });
  });
  afterAll(() => pool.destroy());

  // Chunks of half a second: the 2 s clip is cut at frames 12, 24 and 36 (keyframes every 6
  // frames at 25 fps), four chunks queued on two threads.
  const BOUNDARIES = [12, 24, 36];

  it('splits the video into chunks swapped side by side and joined: same frames, size, rate and audio; the person swapped on both sides of every cut', async () => {
    const output = path.join(dir, 'pooled.mp4');
    const progress: number[] = [];
    const result = await swapVideoOnPool(pool, { input: clip, output, source: await demoPhoto(2), targetFaceIndex: 1, minChunkSeconds: 0.5 }, (percent) => progress.push(percent));
    expect(result).toMatchObject({ width: 640, height: 360, fps: FPS, frames: PAN.frames, hasAudio: true });
    const after = await probeVideo(output);
    expect({ width: after.width, height: after.height, fps: after.fps, frames: after.frames }).toEqual({ width: 640, height: 360, fps: FPS, frames: PAN.frames });
    expect(await hasAudio(output)).toBe(true);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const around = BOUNDARIES.flatMap((cut) => [cut - 1, cut]);
    const moved = await changes(output, around);
    for (const face of moved) expect(face, `${face.person} on frame ${face.index}`).toSatisfy(face.person === 'B' ? swapped : untouched);
    expect(moved.filter((face) => face.person === 'B').map((face) => face.index)).toEqual(around);

    // Every frame is the input's frame at the same index: the pan moves about 4 px a frame, so a
    // frame repeated or dropped at a cut would be nearer the input's neighbouring frame.
    const indices = [...around, 0, PAN.frames - 1];
    const [input, swappedFrames] = [await imagesAt(clip, indices.flatMap((i) => [i - 1, i, i + 1])), await imagesAt(output, indices)];
    for (const i of indices) {
      const same = backgroundChange(swappedFrames.get(i)!, input.get(i)!);
      expect(same, `frame ${i}`).toBeLessThan(5);
      for (const neighbour of [i - 1, i + 1].filter((n) => input.has(n))) {
        expect(backgroundChange(swappedFrames.get(i)!, input.get(neighbour)!), `frame ${i} against ${neighbour}`).toBeGreaterThan(2 * same);
      }
    }
  });

  it('refuses as on one thread, before any chunk runs', async () => {
    const progress: number[] = [];
    const output = path.join(dir, 'refused-on-pool.mp4');
    await expect(swapVideoOnPool(pool, { input: clip, output, source: await demoPhoto(2), targetFaceIndex: 4, minChunkSeconds: 0.5 }, (percent) => progress.push(percent))).rejects.toMatchObject({
      reason: 'face_index_out_of_range',
      message: 'face index 4 is out of range: the frame at 0 s (the first with a face) has 2 faces (0-1)',
    });
    expect(progress).toEqual([0]);
    await expect(stat(output)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stops every chunk on abort and leaves no temporary file and no ffmpeg behind', async () => {
    const saved = process.env.TMPDIR;
    const tmp = await mkdtemp(path.join(dir, 'tmp-'));
    process.env.TMPDIR = tmp;
    const output = path.join(dir, 'aborted.mp4');
    const abort = new AbortController();
    try {
      const swap = swapVideoOnPool(pool, { input: clip, output, source: await demoPhoto(2), minChunkSeconds: 0.5 }, (percent) => percent > 0 && abort.abort(), abort.signal);
      await expect(swap).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      process.env.TMPDIR = saved;
    }
    // Only the swap's own files count: a render thread started meanwhile puts tsx's cache there too.
    expect((await readdir(tmp)).filter((name) => name.startsWith('doppel-'))).toEqual([]);
    await expect(stat(output)).rejects.toMatchObject({ code: 'ENOENT' });
    // Every ffmpeg the chunks started has ended and been reaped: none is left running or as a zombie.
    await expect.poll(() => ffmpegChildren(), { timeout: 5000 }).toEqual([]);
  });
});
