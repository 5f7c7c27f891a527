import { execFile, type ExecFileException } from 'node:child_process';
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

/** How long a binary may take to answer `-version`. */
const VERSION_TIMEOUT_MS = 10_000;

/** Null when `binary` runs, else why it did not, in words an operator can act on. */
async function whyNotRunning(binary: string): Promise<string | null> {
  if (seenRunning.has(binary)) return null;
  try {
    await run(binary, ['-version'], { timeout: VERSION_TIMEOUT_MS });
    seenRunning.add(binary);
    return null;
  } catch (error) {
    return failure(error);
  }
}

/** A failed `-version` run, as the cause the refusal names (the message alone gave operators nothing to go on). */
function failure(error: unknown): string {
  const { code, killed, signal, stderr } = error as ExecFileException & { stderr?: string };
  if (code === 'ENOENT') return 'not found';
  if (code === 'EACCES') return 'not executable';
  if (killed) return `no answer to -version within ${VERSION_TIMEOUT_MS / 1000} s`;
  if (signal) return `killed by ${signal}`;
  const said = stderr?.trim().split('\n')[0];
  if (typeof code === 'number') return `exited with code ${code}${said ? `: ${said}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

/** True when ffmpeg can be run; video tasks fail with a clear error when it cannot. */
export async function ffmpegAvailable(): Promise<boolean> {
  return (await whyNotRunning(ffmpegPath())) === null;
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
  const causes = await Promise.all(binaries.map(([binary]) => whyNotRunning(binary)));
  const missing = binaries.findIndex((_, i) => causes[i] !== null);
  if (missing >= 0) {
    const [binary, variable] = binaries[missing]!;
    throw new EngineError('ffmpeg_unavailable', `video processing needs ${binary}, which cannot be run (${causes[missing]}): install ffmpeg or set ${variable}`);
  }
}
