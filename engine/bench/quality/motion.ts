import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { decodeGif, encodeGif, readGifHeader } from '../../src/animation/gif-frames';
import { meshCentre } from '../../src/animation/face-motion';
import { swapGif } from '../../src/animation/swap-gif';
import type { RgbImage } from '../../src/faces/decode-image';
import { detectFaces, type Face } from '../../src/faces/detect-faces';
import { faceDistance } from '../../src/faces/face-distance';
import type { Box } from '../../src/faces/face-order';
import type { Recogniser } from '../../src/faces/human';
import { readFrames } from '../../src/video/read-frames';
import { probeVideo } from '../../src/video/probe-video';
import { swapVideo } from '../../src/video/swap-video';
import { openEncoder } from '../../src/video/write-frames';
import { meshSpread } from '../../test/quality/mesh-spread';
import { deltaE, faceCentreLab } from '../../test/quality/tone';
import { RECOGNISERS, demoImage, seeFaceAt, type SeenFace } from './faces';
import { faceTile } from './stills';
import { wobbleOf, type ExpectedFace, type Wobble } from './wobble';

/** A generated camera move over a demo photo resized to `photoWidth`: the window's left/top and zoom move linearly. */
export interface Clip {
  name: string;
  kind: 'gif' | 'mp4';
  photo: number;
  photoWidth: number;
  width: number;
  height: number;
  frames: number;
  from: { x: number; y: number; zoom: number };
  to: { x: number; y: number; zoom: number };
}

export interface MotionResult {
  clip: Clip;
  /** The chosen person's face in the photo, as a demo face's id (photo-index in face order). */
  person: string;
  /** Frames where at least half of the chosen person's face is inside the frame. */
  inView: number;
  /** ... of which the face was left as it was. */
  notSwapped: number;
  /** ... of which each recogniser finds the face closer to the source than to the person. */
  identity: Record<Recogniser, number>;
  /** Mean frame-to-frame ΔE of the face centre's colour, swapped and original (through the same decoding and encoding, unswapped). */
  flicker: { swapped: number; original: number };
  /** How steadily the person is followed (`wobbleOf`). */
  wobble: Wobble;
  /** Every in-view frame, for the report's strip. */
  frames: SeenFrame[];
}

/** One in-view frame: the person's face before and after (`STRIP_TILE` px JPEGs), and which recognisers found the source in it (null: no face found). */
export interface SeenFrame {
  index: number;
  before: Buffer;
  after: Buffer;
  passes: Record<Recogniser, boolean> | null;
}

/** Side of a frame's tile in the report's motion strip, px. */
export const STRIP_TILE = 96;

/** The part of the photo frame `index` of the clip shows. */
export function windowOf(clip: Clip, index: number): Box {
  const t = clip.frames === 1 ? 0 : index / (clip.frames - 1);
  const lerp = (a: number, b: number) => a + (b - a) * t;
  const zoom = lerp(clip.from.zoom, clip.to.zoom);
  const [width, height] = [Math.round(clip.width / zoom), Math.round(clip.height / zoom)];
  return { x: Math.round(lerp(clip.from.x, clip.to.x)), y: Math.round(lerp(clip.from.y, clip.to.y)), width, height };
}

/** Where a box of the photo lands on frame `index` (may reach outside the frame). */
export function onFrame(clip: Clip, index: number, box: Box): Box {
  const w = windowOf(clip, index);
  const scale = clip.width / w.width;
  return { x: (box.x - w.x) * scale, y: (box.y - w.y) * scale, width: box.width * scale, height: box.height * scale };
}

/** Share of `box` (on a frame) inside the frame. */
export function visibleShare(clip: Clip, box: Box): number {
  const width = Math.max(0, Math.min(clip.width, box.x + box.width) - Math.max(0, box.x));
  const height = Math.max(0, Math.min(clip.height, box.y + box.height) - Math.max(0, box.y));
  return (width * height) / (box.width * box.height);
}

export function clipped(clip: Clip, box: Box): Box {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  return { x, y, width: Math.min(clip.width, Math.ceil(box.x + box.width)) - x, height: Math.min(clip.height, Math.ceil(box.y + box.height)) - y };
}

/** The clip's frames, cut from `photo` (the demo photo resized to the clip's `photoWidth`). */
export async function clipFrames(clip: Clip, photo: RgbImage): Promise<RgbImage[]> {
  const raw = sharp(photo.rgb, { raw: { width: photo.width, height: photo.height, channels: 3 } });
  const frames: RgbImage[] = [];
  for (let i = 0; i < clip.frames; i++) {
    const w = windowOf(clip, i);
    const rgb = await raw.clone().extract({ left: w.x, top: w.y, width: w.width, height: w.height }).resize(clip.width, clip.height).raw().toBuffer();
    frames.push({ rgb, width: clip.width, height: clip.height });
  }
  return frames;
}

/**
 * Swaps the clip as the engine's GIF or video swap would, and returns the output's frames, and the
 * clip's frames passed through the same decoding and encoding without a swap (what the output's
 * flicker is compared with: an MP4 is encoded twice on its way out, a GIF's palette dithers anew).
 */
export async function swapClip(clip: Clip, frames: RgbImage[], source: Buffer): Promise<{ swapped: RgbImage[]; passed: RgbImage[] }> {
  const all = Buffer.concat(frames.map((frame) => frame.rgb));
  if (clip.kind === 'gif') {
    const gif = await sharp(all, { raw: { width: clip.width, height: clip.height * clip.frames, channels: 3, pageHeight: clip.height } }).gif({ delay: frames.map(() => 80) }).toBuffer();
    const { image } = await swapGif({ target: gif, source });
    const passed = await encodeGif(await decodeGif(gif, await readGifHeader(gif)));
    return { swapped: await gifFrames(clip, image), passed: await gifFrames(clip, passed) };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-quality-'));
  try {
    const [input, output, passed] = [path.join(dir, 'in.mp4'), path.join(dir, 'out.mp4'), path.join(dir, 'passed.mp4')];
    const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${clip.width}x${clip.height}`, '-framerate', '25', '-i', 'pipe:0', '-c:v', 'libx264', '-crf', '18', '-pix_fmt', 'yuv420p', '-y', input], { stdio: ['pipe', 'ignore', 'inherit'] });
    ffmpeg.stdin.end(all);
    await once(ffmpeg, 'close');
    await swapVideo({ input, output, source, keepAudio: false });
    const video = await probeVideo(input);
    const encoder = openEncoder({ output: passed, width: video.width, height: video.height, frameRate: video.frameRate });
    for await (const frame of readFrames(input, video)) await encoder.write(frame.rgb);
    await encoder.finish();
    return { swapped: await videoFrames(output), passed: await videoFrames(passed) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function gifFrames(clip: Clip, gif: Buffer): Promise<RgbImage[]> {
  const { data } = await sharp(gif, { animated: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const size = clip.width * clip.height * 3;
  return Array.from({ length: clip.frames }, (_, i) => ({ rgb: data.subarray(i * size, (i + 1) * size), width: clip.width, height: clip.height }));
}

async function videoFrames(file: string): Promise<RgbImage[]> {
  const out: RgbImage[] = [];
  for await (const frame of readFrames(file, await probeVideo(file))) out.push({ ...frame, rgb: Uint8Array.from(frame.rgb) });
  return out;
}

const sumAbsDiff = (a: RgbImage, b: RgbImage, box: Box) => {
  let sum = 0;
  for (let y = box.y; y < box.y + box.height; y++) for (let x = box.x; x < box.x + box.width; x++) for (let k = 0; k < 3; k++) sum += Math.abs(a.rgb[(y * a.width + x) * 3 + k]! - b.rgb[(y * a.width + x) * 3 + k]!);
  return sum;
};

/** Mean change per channel inside `box`, beyond the mean change outside it (re-encoding noise). */
export function changeInside(before: RgbImage, after: RgbImage, box: Box): number {
  const inside = sumAbsDiff(before, after, box);
  const all = sumAbsDiff(before, after, { x: 0, y: 0, width: before.width, height: before.height });
  const area = box.width * box.height * 3;
  return inside / Math.max(1, area) - (all - inside) / Math.max(1, before.width * before.height * 3 - area);
}

/** Where the camera's move puts the centre of the person's mesh (`person`, on the photo) on frame `index`, while at least half of the face is in view. */
function expectedFace(clip: Clip, index: number, person: Face): ExpectedFace {
  const box = onFrame(clip, index, person.box);
  if (visibleShare(clip, box) < 0.5) return null;
  const [x, y] = meshCentre(person.mesh);
  const at = onFrame(clip, index, { x, y, width: 0, height: 0 });
  return { x: at.x, y: at.y, size: Math.sqrt(box.width * box.height), spread: (meshSpread(person.mesh) * clip.width) / windowOf(clip, index).width };
}

const placeholder = (box: Box): Face => ({ index: 0, box, mesh: new Float32Array(0), depth: new Float32Array(0), score: 1, descriptor: null });

/** The face of the photo the engine swaps by default: the largest face on the clip's first frame, found on the photo. */
export async function personOf(clip: Clip, photo: RgbImage, first: RgbImage): Promise<Face> {
  const firstFaces = await detectFaces(first);
  const chosenOnFirst = firstFaces.reduce((a, b) => (b.box.width * b.box.height > a.box.width * a.box.height ? b : a));
  const w0 = windowOf(clip, 0);
  const scale0 = w0.width / clip.width;
  const photoFaces = await detectFaces(photo);
  const centre = { x: w0.x + (chosenOnFirst.box.x + chosenOnFirst.box.width / 2) * scale0, y: w0.y + (chosenOnFirst.box.y + chosenOnFirst.box.height / 2) * scale0 };
  const gap = (face: Face) => Math.hypot(face.box.x + face.box.width / 2 - centre.x, face.box.y + face.box.height / 2 - centre.y);
  return photoFaces.reduce((a, b) => (gap(b) < gap(a) ? b : a));
}

/**
 * Runs one clip: the person the engine picks by default (the largest face on the first frame) is
 * located on every frame from the photo's own detection, so frames where the detector misses a
 * face cut by the edge still count. A face counts as swapped when its pixels changed by more than
 * 3 levels on average beyond what re-encoding changed elsewhere.
 */
export async function measureClip(clip: Clip, source: Buffer, sourceFace: SeenFace): Promise<MotionResult> {
  const photo = await demoImage(clip.photo, clip.photoWidth);
  const frames = await clipFrames(clip, photo);
  const person = await personOf(clip, photo, frames[0]!);
  const personSeen = await seeFaceAt(photo, person);
  const { swapped: output, passed } = await swapClip(clip, frames, source);
  const wobble = await wobbleOf(clip.kind, frames, frames.map((_, i) => expectedFace(clip, i, person)));
  const result: MotionResult = { clip, person: `${clip.photo}-${person.index}`, inView: 0, notSwapped: 0, identity: { faceres: 0, 'faceres-deep': 0 }, flicker: { swapped: 0, original: 0 }, wobble, frames: [] };
  let previous: { before: ReturnType<typeof faceCentreLab>; after: ReturnType<typeof faceCentreLab> } | null = null;
  let steps = 0;
  for (let i = 0; i < clip.frames; i++) {
    const where = onFrame(clip, i, person.box);
    if (visibleShare(clip, where) < 0.5) {
      previous = null;
      continue;
    }
    result.inView++;
    const box = clipped(clip, where);
    if (changeInside(frames[i]!, output[i]!, box) < 3) result.notSwapped++;
    const swapped = await seeFaceAt(output[i]!, placeholder(box));
    let passes: SeenFrame['passes'] = null;
    if (swapped && personSeen) {
      passes = { faceres: false, 'faceres-deep': false };
      for (const r of RECOGNISERS) passes[r] = faceDistance(swapped.descriptors[r], sourceFace.descriptors[r]) < faceDistance(swapped.descriptors[r], personSeen.descriptors[r]);
      for (const r of RECOGNISERS) if (passes[r]) result.identity[r]++;
    }
    result.frames.push({ index: i, before: await faceTile(frames[i]!, box, STRIP_TILE), after: await faceTile(output[i]!, box, STRIP_TILE), passes });
    const now = { before: faceCentreLab(passed[i]!, box), after: faceCentreLab(output[i]!, box) };
    if (previous) {
      result.flicker.original += deltaE(previous.before, now.before);
      result.flicker.swapped += deltaE(previous.after, now.after);
      steps++;
    }
    previous = now;
  }
  result.flicker = { swapped: result.flicker.swapped / Math.max(1, steps), original: result.flicker.original / Math.max(1, steps) };
  return result;
}
