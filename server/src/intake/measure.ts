import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffprobePath } from '@doppel/worker';
import sharp from 'sharp';
import type { MediaKind } from '../media/sniff';

const run = promisify(execFile);

export interface MediaMeasure {
  width?: number;
  height?: number;
  durationSeconds?: number;
  frames?: number;
}

/**
 * What pricing and caps need to know of an input, read from the bytes. Unreadable media yields
 * an empty measure; whether the bytes decode is the engine's judgement to make, with a clear
 * task error, and the caller's declared values stand in meanwhile.
 */
export async function measureMedia(kind: MediaKind, bytes: Buffer): Promise<MediaMeasure> {
  try {
    if (kind === 'mp4' || kind === 'mov' || kind === 'webm') return await probeVideo(bytes);
    const meta = await sharp(bytes, { animated: true }).metadata();
    const frames = meta.pages ?? 1;
    const height = meta.pageHeight ?? meta.height;
    if (kind !== 'gif') return { width: meta.width, height, frames };
    // GIF delays are in milliseconds; browsers show a 0 delay as 100 ms, and so do we.
    const delays = meta.delay ?? [];
    const totalMs = Array.from({ length: frames }, (_, i) => delays[i] || 100).reduce((a, b) => a + b, 0);
    return { width: meta.width, height, frames, durationSeconds: totalMs / 1000 };
  } catch {
    return {};
  }
}

async function probeVideo(bytes: Buffer): Promise<MediaMeasure> {
  // MP4s often keep their index at the end, which a pipe cannot seek to: probe a file.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-probe-'));
  try {
    const file = path.join(dir, 'input');
    await writeFile(file, bytes);
    const { stdout } = await run(
      ffprobePath(),
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-select_streams', 'v:0', file],
      { timeout: 20_000 },
    );
    const probe = JSON.parse(stdout) as {
      format?: { duration?: string };
      streams?: { width?: number; height?: number; nb_frames?: string; duration?: string }[];
    };
    const video = probe.streams?.[0];
    const duration = Number(probe.format?.duration ?? video?.duration);
    return {
      width: video?.width,
      height: video?.height,
      durationSeconds: Number.isFinite(duration) ? duration : undefined,
      frames: video?.nb_frames ? Number(video.nb_frames) : undefined,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
