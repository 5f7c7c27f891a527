import type { RgbImage } from '../faces/decode-image';
import { EngineError } from '../faces/engine-error';
import { startFfmpeg } from './child-process';

/** Frames by index on the constant-rate grid (frame i shows at i / fps from the video's start). */
export interface FrameRange {
  /** Index of the first frame; default 0. */
  first?: number;
  /** Stop after this many frames (never past the measured length's frames, whatever is asked). */
  count?: number;
}

/** What `probeVideo` measured of the file: decoding never runs past it. */
export interface FrameSource {
  width: number;
  height: number;
  frameRate: string;
  fps: number;
  durationSeconds: number;
}

/** Frames the measured length holds at the output rate, and one for rounding: no decode yields more. */
export const frameBudget = (video: FrameSource): number => Math.ceil(video.durationSeconds * video.fps) + 1;

/** Frames of the measured length on the constant-rate grid. */
export const gridFrames = (video: FrameSource): number => Math.round(video.durationSeconds * video.fps);

/** Index of the frame at `seconds`: the first one showing at or after that time, at most the last. */
export function frameAt(video: FrameSource, seconds: number): number {
  const last = Math.max(0, gridFrames(video) - 1);
  return Math.min(Math.max(0, Math.ceil(seconds * video.fps - 1e-6)), last);
}

/**
 * A range is decoded from this long before its first frame: the demuxer seeks to the keyframe at or
 * before that point, and leading pictures of an open GOP (dropped after a seek) fall before the range.
 */
const SEEK_MARGIN_SECONDS = 1;

/**
 * Decodes a video's frames as upright RGB, one at a time, on a constant-rate grid at `frameRate`
 * (ffmpeg's `fps` filter repeats or drops frames of variable-rate input). Frames come through a
 * pipe and are yielded as they complete; the pipe pauses while the consumer works, so memory holds
 * only the frames the consumer keeps.
 *
 * Frame i is the last decoded frame whose timestamp rounds to i or before: a function of the
 * timestamps alone, so a range decoded after a seek yields exactly the frames a decode from the
 * start yields at the same indices, and ranges decoded apart join without a frame repeated or
 * dropped. Decoding is bounded by the measured duration's frames (`-frames:v`): timestamps that
 * jump far ahead, which the grid would fill with repeated frames, cannot make a video render
 * longer than it was measured and priced.
 */
export async function* readFrames(file: string, video: FrameSource, range: FrameRange = {}): AsyncGenerator<RgbImage> {
  const { width, height } = video;
  const first = range.first ?? 0;
  const budget = Math.max(0, frameBudget(video) - first);
  const count = Math.min(budget, range.count ?? budget);
  if (count === 0) return;
  const firstSeconds = first / video.fps;
  const seek = Math.max(0, firstSeconds - SEEK_MARGIN_SECONDS);
  const ffmpeg = startFfmpeg(
    [
      // Timestamps start at the seek point: the grid's origin moves with it.
      ...(seek > 0 ? ['-ss', seek.toFixed(6), '-noaccurate_seek'] : []),
      '-i', file,
      '-map', '0:v:0',
      '-vf', `fps=fps=${video.frameRate}:start_time=${(firstSeconds - seek).toFixed(6)}`,
      '-fps_mode', 'passthrough',
      '-frames:v', String(count),
      '-f', 'rawvideo',
      '-pix_fmt', 'rgb24',
      'pipe:1',
    ],
    'ignore',
  );
  const size = width * height * 3;
  let frame = new Uint8Array(size);
  let filled = 0;
  try {
    for await (const chunk of ffmpeg.child.stdout! as AsyncIterable<Buffer>) {
      for (let offset = 0; offset < chunk.length; ) {
        const n = Math.min(size - filled, chunk.length - offset);
        frame.set(chunk.subarray(offset, offset + n), filled);
        filled += n;
        offset += n;
        if (filled === size) {
          yield { rgb: frame, width, height };
          frame = new Uint8Array(size);
          filled = 0;
        }
      }
    }
    const code = await ffmpeg.exited;
    if (code !== 0) {
      // ffmpeg's own words name server paths and internals: they stay in the cause, out of the
      // task's public error.
      throw new EngineError('undecodable_input', 'cannot decode the video: it is damaged or uses a form ffmpeg cannot read', {
        cause: new Error(ffmpeg.log() || `ffmpeg exited with ${code}`),
      });
    }
  } finally {
    await ffmpeg.stop();
  }
}

/** Frame `index` alone (see `readFrames`), its ffmpeg ended once it is read; null when it cannot be decoded. */
export async function readFrame(file: string, video: FrameSource, index: number): Promise<RgbImage | null> {
  const decoded = readFrames(file, video, { first: index, count: 1 });
  try {
    return (await decoded.next()).value ?? null;
  } finally {
    await decoded.return(undefined);
  }
}
