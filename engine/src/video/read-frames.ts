import type { RgbImage } from '../faces/decode-image';
import { EngineError } from '../faces/engine-error';
import { startFfmpeg } from './child-process';

export interface ReadFramesOptions {
  /** Start decoding at this time instead of the first frame. */
  startSeconds?: number;
  /** Stop after this many frames (at most the measured length's frames, whatever is asked). */
  maxFrames?: number;
}

/** What `probeVideo` measured of the file: decoding never runs past it. */
export interface FrameSource {
  width: number;
  height: number;
  frameRate: string;
  fps: number;
  durationSeconds: number;
}

/**
 * Decodes a video's frames as upright RGB, one at a time, at a constant `frameRate` (frames are
 * repeated or dropped as ffmpeg's `-fps_mode cfr` decides for variable-rate input). Frames come
 * through a pipe and are yielded as they complete; the pipe pauses while the consumer works, so
 * memory holds only the frames the consumer keeps.
 *
 * Decoding is bounded by the measured duration (`-t`) and the frames it holds at the output rate
 * (`-frames:v`): timestamps that jump far ahead, which `cfr` would fill with repeated frames,
 * cannot make a video render longer than it was measured and priced.
 */
export async function* readFrames(file: string, video: FrameSource, options: ReadFramesOptions = {}): AsyncGenerator<RgbImage> {
  const { width, height } = video;
  const start = options.startSeconds ?? 0;
  const remaining = Math.max(0, video.durationSeconds - start);
  const budget = Math.ceil(remaining * video.fps) + 1;
  const maxFrames = Math.min(budget, options.maxFrames ?? budget);
  const ffmpeg = startFfmpeg(
    [
      ...(start ? ['-ss', start.toFixed(3)] : []),
      '-i', file,
      '-map', '0:v:0',
      '-fps_mode', 'cfr',
      '-r', video.frameRate,
      '-t', (remaining + 1 / video.fps).toFixed(3),
      '-frames:v', String(maxFrames),
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
    ffmpeg.stop();
  }
}
