import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { startFfmpeg } from './child-process';

export interface EncoderOptions {
  /** The MP4 file to write (replaced if it exists). */
  output: string;
  width: number;
  height: number;
  /** Frame rate as ffmpeg writes it, e.g. 30000/1001. */
  frameRate: string;
}

export interface FrameEncoder {
  /** Queues one RGB frame; resolves when the pipe can take more (back-pressure). */
  write(rgb: Uint8Array): Promise<void>;
  /** Ends the input and waits for the finished file. */
  finish(): Promise<void>;
  /** Abandons the output (after a failure elsewhere); resolves once the encoder has ended. */
  abort(): Promise<void>;
}

/**
 * Encodes RGB frames arriving over a pipe to H.264 in MP4, without audio (a chunk's part of the
 * video; `joinSegments` adds the audio): yuv420p (what players expect), the source's frame rate
 * and size (odd sizes padded by one pixel: yuv420p needs even ones).
 */
export function openEncoder(options: EncoderOptions): FrameEncoder {
  const { width, height } = options;
  const even = width % 2 === 0 && height % 2 === 0;
  const ffmpeg = startFfmpeg(
    [
      '-f', 'rawvideo',
      '-pix_fmt', 'rgb24',
      '-s', `${width}x${height}`,
      '-framerate', options.frameRate,
      '-i', 'pipe:0',
      '-map', '0:v:0',
      ...(even ? [] : ['-vf', 'pad=ceil(iw/2)*2:ceil(ih/2)*2']),
      '-c:v', 'libx264',
      '-preset', 'veryfast',
      '-crf', '20',
      '-pix_fmt', 'yuv420p',
      '-f', 'mp4',
      '-y', options.output,
    ],
    'pipe',
  );
  const stdin = ffmpeg.child.stdin as Writable;
  // A dead ffmpeg makes writes fail with EPIPE; the exit code and log say more, in finish().
  stdin.on('error', () => undefined);
  const failed = ffmpeg.exited.then((code) => {
    throw new Error(`the video encoder stopped early: ${ffmpeg.log() || `ffmpeg exited with ${code}`}`);
  });
  failed.catch(() => undefined);
  return {
    async write(rgb) {
      if (!stdin.write(rgb)) await Promise.race([once(stdin, 'drain'), failed]);
    },
    async finish() {
      stdin.end();
      const code = await ffmpeg.exited;
      if (code !== 0) throw new Error(`cannot encode the video: ${ffmpeg.log() || `ffmpeg exited with ${code}`}`);
    },
    abort: ffmpeg.stop,
  };
}
