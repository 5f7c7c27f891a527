import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkVideoCaps, DEFAULT_VIDEO_CAPS, videoFrameBudget } from '../animation/caps';
import { EngineError } from '../faces/engine-error';
import { ffmpegPath } from './ffmpeg';
import { probeVideo } from './probe-video';

const run = promisify(execFile);

/**
 * JPEG stills at the given fractions of a video's measured duration (for the content scan), so a
 * header that understates the length cannot hide the rest of the video from the scan. A video
 * over the caps is refused before any frame is decoded. The video is written to a temporary file
 * because MP4 indexes often sit at the end, out of a pipe's reach.
 */
export async function videoStills(video: Buffer, fractions: number[] = [0.1, 0.5, 0.9]): Promise<Buffer[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-stills-'));
  try {
    const input = path.join(dir, 'input');
    await writeFile(input, video);
    const info = await probeVideo(input, { maxPackets: videoFrameBudget(DEFAULT_VIDEO_CAPS) + 1 });
    checkVideoCaps(info, DEFAULT_VIDEO_CAPS);
    const stills: Buffer[] = [];
    for (const [i, fraction] of fractions.entries()) {
      const output = path.join(dir, `still-${i}.jpg`);
      await run(
        ffmpegPath(),
        ['-v', 'error', '-ss', (info.durationSeconds * fraction).toFixed(3), '-i', input, '-frames:v', '1', '-q:v', '3', '-y', output],
        { timeout: 30_000 },
      ).catch(() => undefined);
      stills.push(await readFile(output).catch(() => Buffer.alloc(0)));
    }
    const usable = stills.filter((s) => s.length > 0);
    if (usable.length === 0) throw new EngineError('undecodable_input', 'cannot decode the video: no frame could be read');
    return usable;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
