import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath, ffprobePath } from './ffmpeg';

const run = promisify(execFile);

/**
 * JPEG stills at the given fractions of a video's duration (for the content scan). The video is
 * written to a temporary file because MP4 indexes often sit at the end, out of a pipe's reach.
 */
export async function videoStills(video: Buffer, fractions: number[] = [0.1, 0.5, 0.9]): Promise<Buffer[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-stills-'));
  try {
    const input = path.join(dir, 'input');
    await writeFile(input, video);
    const { stdout } = await run(
      ffprobePath(),
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', input],
      { timeout: 20_000 },
    );
    const duration = Number(stdout.trim()) || 0;
    const stills: Buffer[] = [];
    for (const [i, fraction] of fractions.entries()) {
      const output = path.join(dir, `still-${i}.jpg`);
      await run(
        ffmpegPath(),
        ['-v', 'error', '-ss', (duration * fraction).toFixed(3), '-i', input, '-frames:v', '1', '-q:v', '3', '-y', output],
        { timeout: 30_000 },
      );
      stills.push(await readFile(output).catch(() => Buffer.alloc(0)));
    }
    const usable = stills.filter((s) => s.length > 0);
    if (usable.length === 0) throw new Error('no frame could be read from the video');
    return usable;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
