import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The ffmpeg binary: DOPPEL_FFMPEG_PATH, else the one on PATH. */
export const ffmpegPath = () => process.env.DOPPEL_FFMPEG_PATH ?? 'ffmpeg';
/** The ffprobe binary: DOPPEL_FFPROBE_PATH, else the one on PATH. */
export const ffprobePath = () => process.env.DOPPEL_FFPROBE_PATH ?? 'ffprobe';

/** True when ffmpeg can be run; video tasks fail with a clear error when it cannot. */
export async function ffmpegAvailable(): Promise<boolean> {
  try {
    await run(ffmpegPath(), ['-version'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}
