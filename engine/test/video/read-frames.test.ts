import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeVideo } from '../../src/video/probe-video';
import { readFrames, type FrameRange } from '../../src/video/read-frames';

const run = promisify(execFile);

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-read-frames-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A generated 6 s clip whose every frame differs (a moving pattern with a frame counter). */
async function testClip(name: string, rate: string, codec: string[]): Promise<string> {
  const file = path.join(dir, name);
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=160x96:rate=${rate}`, '-t', '6', ...codec, '-pix_fmt', 'yuv420p', '-y', file]);
  return file;
}

async function decode(file: string, range?: FrameRange): Promise<Uint8Array[]> {
  const frames: Uint8Array[] = [];
  for await (const frame of readFrames(file, await probeVideo(file), range)) frames.push(frame.rgb);
  return frames;
}

describe('frames decoded in ranges', () => {
  // H.264 with B-frames and one keyframe in 250 frames (seeks land seconds before the range), at
  // NTSC's 30000/1001; and VP9 in WebM.
  const clips = [
    { name: 'ntsc.mp4', rate: '30000/1001', frames: 180, codec: ['-c:v', 'libx264', '-preset', 'veryfast'] },
    { name: 'clip.webm', rate: '25', frames: 150, codec: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8'] },
  ];
  for (const clip of clips) {
    it(`are exactly the frames a decode from the start has at those indices, none repeated or dropped at a boundary (${clip.name})`, async () => {
      const file = await testClip(clip.name, clip.rate, clip.codec);
      const whole = await decode(file);
      expect(whole.length).toBe(clip.frames);
      const joined = [...(await decode(file, { count: 37 })), ...(await decode(file, { first: 37, count: 60 })), ...(await decode(file, { first: 97 }))];
      expect(joined.length).toBe(whole.length);
      const differing = joined.flatMap((frame, i) => (Buffer.compare(frame, whole[i]!) === 0 ? [] : [i]));
      expect(differing).toEqual([]);
    });
  }
});
