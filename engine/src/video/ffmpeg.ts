import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EngineError } from '../faces/engine-error';

const run = promisify(execFile);

/** The ffmpeg binary: DOPPEL_FFMPEG_PATH, else the one on PATH. */
export const ffmpegPath = () => process.env.DOPPEL_FFMPEG_PATH ?? 'ffmpeg';
/** The ffprobe binary: DOPPEL_FFPROBE_PATH, else the one on PATH. */
export const ffprobePath = () => process.env.DOPPEL_FFPROBE_PATH ?? 'ffprobe';

/**
 * Binaries seen to run in this process. Each check starts the binary (70-90 ms, more with others
 * starting beside it) and every video's probe asks: once a binary has run, it is not asked again.
 * A binary that fails is asked again each time, so one installed later is found.
 */
const seenRunning = new Set<string>();

async function runs(binary: string): Promise<boolean> {
  if (seenRunning.has(binary)) return true;
  try {
    await run(binary, ['-version'], { timeout: 10_000 });
    seenRunning.add(binary);
    return true;
  } catch {
    return false;
  }
}

/** True when ffmpeg can be run; video tasks fail with a clear error when it cannot. */
export function ffmpegAvailable(): Promise<boolean> {
  return runs(ffmpegPath());
}

/**
 * Refuses video work up front, with a message an operator can act on, when ffmpeg or ffprobe
 * cannot be run: failing half-way through a pipe would only say "spawn ENOENT".
 */
export async function requireFfmpeg(): Promise<void> {
  const binaries = [
    [ffmpegPath(), 'DOPPEL_FFMPEG_PATH'],
    [ffprobePath(), 'DOPPEL_FFPROBE_PATH'],
  ] as const;
  // Both asked at once: each run starts the binary (70-90 ms).
  const running = await Promise.all(binaries.map(([binary]) => runs(binary)));
  const missing = binaries.find((_, i) => !running[i]);
  if (missing) {
    const [binary, variable] = missing;
    throw new EngineError('ffmpeg_unavailable', `video processing needs ${binary}, which cannot be run: install ffmpeg or set ${variable}`);
  }
}
