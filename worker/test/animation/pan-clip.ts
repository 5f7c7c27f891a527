import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

const require = createRequire(import.meta.url);
const DEMO_DIR = path.join(path.dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');

/**
 * Demo photo 1 at 960 px wide shows three people, A, B and C from left to right, their faces
 * about 100 px across at x = 210-300, 417-520 and 735-838, y = 112-330.
 */
const PHOTO_WIDTH = 960;

export interface Pan {
  width: number;
  height: number;
  frames: number;
  /** Left edge of the window over the 960 px photo on the first and the last frame. */
  fromX: number;
  toX: number;
  /** Top edge of the window. */
  y: number;
  /** Zoom on the last frame (1 on the first). */
  zoom: number;
}

/** The part of the photo frame `index` of the pan shows. */
function windowOf(pan: Pan, index: number) {
  const t = pan.frames === 1 ? 0 : index / (pan.frames - 1);
  const zoom = 1 + (pan.zoom - 1) * t;
  const [width, height] = [Math.round(pan.width / zoom), Math.round(pan.height / zoom)];
  const left = Math.round(pan.fromX + (pan.toX - pan.fromX) * t + (pan.width - width) / 2);
  const top = Math.round(pan.y + (pan.height - height) / 2);
  return { left, top, width, height };
}

/** Frames of a slow camera pan (with a slight zoom) over demo photo 1, as raw RGB. */
export async function* panFrames(pan: Pan): AsyncGenerator<Buffer> {
  const photo = await sharp(await readFile(path.join(DEMO_DIR, 'sample1.jpg'))).resize({ width: PHOTO_WIDTH }).toBuffer();
  for (let i = 0; i < pan.frames; i++) {
    yield await sharp(photo).extract(windowOf(pan, i)).resize(pan.width, pan.height).removeAlpha().raw().toBuffer();
  }
}

export type Person = 'A' | 'B' | 'C';

/** Who is at `x` (pixels, in the frame) on frame `index` of the pan: the known layout of the photo. */
export function personAt(pan: Pan, index: number, x: number): Person {
  const window = windowOf(pan, index);
  const photoX = window.left + (x * window.width) / pan.width;
  const centres = { A: 255, B: 468, C: 786 };
  return (Object.keys(centres) as Person[]).reduce((best, person) => (Math.abs(centres[person] - photoX) < Math.abs(centres[best] - photoX) ? person : best));
}

/** Each person's face on the 960 px photo: x extent, and the y extent all three share. */
const FACES: Record<Person, { left: number; right: number }> = { A: { left: 210, right: 300 }, B: { left: 417, right: 520 }, C: { left: 735, right: 838 } };
const FACE_TOP = 112;
const FACE_BOTTOM = 330;

/** Where a person's face lies on frame `index` of the pan (it may reach past the frame's edges). */
export function faceOnFrame(pan: Pan, index: number, person: Person): { x: number; y: number; width: number; height: number } {
  const window = windowOf(pan, index);
  const scale = pan.width / window.width;
  const { left, right } = FACES[person];
  return { x: (left - window.left) * scale, y: (FACE_TOP - window.top) * scale, width: (right - left) * scale, height: (FACE_BOTTOM - FACE_TOP) * scale };
}

/** An animated GIF of the pan, frame i shown for `delays[i]` ms, looping `loop` times (0: forever). */
export async function panGif(pan: Pan, delays: number[], loop: number): Promise<Buffer> {
  const frames: Buffer[] = [];
  for await (const frame of panFrames(pan)) frames.push(frame);
  return sharp(Buffer.concat(frames), { raw: { width: pan.width, height: pan.height * pan.frames, channels: 3, pageHeight: pan.height } })
    .gif({ delay: delays, loop })
    .toBuffer();
}

/** An MP4 (H.264) of the pan at `fps`, with a 440 Hz tone as its audio track when `audio` is set. */
export async function panVideo(pan: Pan, fps: number, file: string, audio: boolean): Promise<void> {
  const ffmpeg = spawn(
    'ffmpeg',
    [
      '-v', 'error',
      '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${pan.width}x${pan.height}`, '-framerate', String(fps), '-i', 'pipe:0',
      ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440', '-c:a', 'aac', '-shortest'] : []),
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-y', file,
    ],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  for await (const frame of panFrames(pan)) {
    if (!ffmpeg.stdin.write(frame)) await once(ffmpeg.stdin, 'drain');
  }
  ffmpeg.stdin.end();
  const [code] = (await once(ffmpeg, 'close')) as [number];
  if (code !== 0) throw new Error(`ffmpeg could not write the test clip (exit ${code})`);
}

/** A demo photo by number (1-6), as stored in the face-api package. */
export function demoPhoto(n: number): Promise<Buffer> {
  return readFile(path.join(DEMO_DIR, `sample${n}.jpg`));
}
