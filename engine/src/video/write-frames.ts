import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { startFfmpeg } from './child-process';
import { evenSide, yuv420 } from './yuv-frame';

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
 * Encodes RGB frames to H.264 in MP4, without audio (a chunk's part of the video; `joinSegments`
 * adds the audio): yuv420p (what players expect), the source's frame rate and size (odd sizes
 * padded by one pixel: yuv420p needs even ones). Each frame goes to ffmpeg over a pipe already as
 * yuv420p (`yuv420`): converting RGB there took about a third of the encoder's CPU, and the frame
 * is half the bytes.
 */
export function openEncoder(options: EncoderOptions): FrameEncoder {
  const { width, height } = options;
  const ffmpeg = startFfmpeg(
    [
      '-f', 'rawvideo',
      '-pix_fmt', 'yuv420p',
      '-s', `${evenSide(width)}x${evenSide(height)}`,
      '-framerate', options.frameRate,
      '-i', 'pipe:0',
      '-map', '0:v:0',
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
      if (!stdin.write(yuv420(rgb, width, height))) await Promise.race([once(stdin, 'drain'), failed]);
    },
    async finish() {
      stdin.end();
      const code = await ffmpeg.exited;
      if (code !== 0) throw new Error(`cannot encode the video: ${ffmpeg.log() || `ffmpeg exited with ${code}`}`);
    },
    abort: ffmpeg.stop,
  };
}
