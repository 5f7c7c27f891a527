import { spawn, type ChildProcess } from 'node:child_process';
import { ffmpegPath } from './ffmpeg';

/** A running ffmpeg with the tail of its log kept for error messages. */
export interface FfmpegProcess {
  child: ChildProcess;
  /** Settles when ffmpeg ends: its exit code, or a rejection when it could not be started. */
  exited: Promise<number | null>;
  /** The last lines ffmpeg wrote to stderr (it runs with `-v error`, so these are the errors). */
  log(): string;
  /**
   * Ends ffmpeg at once if it still runs (a failed or abandoned pipe), and resolves once it has
   * ended. Awaited, the thread that started it sees it end, and so reaps it: a compute thread waits
   * for its next task without running its event loop, and a child that died meanwhile stayed a
   * zombie until the thread's next task.
   */
  stop(): Promise<void>;
}

const LOG_TAIL = 2_000;

export function startFfmpeg(args: string[], stdin: 'pipe' | 'ignore'): FfmpegProcess {
  const child = spawn(ffmpegPath(), ['-hide_banner', '-nostdin', '-v', 'error', ...args], { stdio: [stdin, 'pipe', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-LOG_TAIL);
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  // Awaited later by whoever reads the result; this keeps a start failure from being reported
  // as unhandled in the meantime.
  exited.catch(() => undefined);
  return {
    child,
    exited,
    log: () => log.trim(),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited.catch(() => undefined);
    },
  };
}
