import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireFfmpeg } from '../../src/video/ffmpeg';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-ffmpeg-check-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A stand-in binary that logs each start to `log`, writes `stderr`, then exits with `exitCode`. */
async function loggingBinary(name: string, exitCode: number, stderr = ''): Promise<{ binary: string; starts: () => Promise<number> }> {
  const binary = path.join(dir, name);
  const log = `${binary}.log`;
  await writeFile(log, '');
  await writeFile(binary, `#!/bin/sh\necho started >> '${log}'\nprintf '${stderr}' >&2\nexit ${exitCode}\n`);
  await chmod(binary, 0o755);
  return { binary, starts: async () => (await readFile(log, 'utf8')).split('\n').filter(Boolean).length };
}

async function withBinaries<T>(ffmpeg: string, ffprobe: string, work: () => Promise<T>): Promise<T> {
  const saved = [process.env.DOPPEL_FFMPEG_PATH, process.env.DOPPEL_FFPROBE_PATH];
  process.env.DOPPEL_FFMPEG_PATH = ffmpeg;
  process.env.DOPPEL_FFPROBE_PATH = ffprobe;
  try {
    return await work();
  } finally {
    for (const [name, value] of [['DOPPEL_FFMPEG_PATH', saved[0]], ['DOPPEL_FFPROBE_PATH', saved[1]]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe('the check that ffmpeg runs', () => {
  it('starts each binary once: a binary seen running is not started again for the next video', async () => {
    const ffmpeg = await loggingBinary('ffmpeg-ok', 0);
    const ffprobe = await loggingBinary('ffprobe-ok', 0);
    await withBinaries(ffmpeg.binary, ffprobe.binary, async () => {
      await requireFfmpeg();
      await requireFfmpeg();
      await requireFfmpeg();
    });
    expect([await ffmpeg.starts(), await ffprobe.starts()]).toEqual([1, 1]);
  });

  it('asks a binary that failed again every time, so one that works later is found', async () => {
    const ffmpeg = await loggingBinary('ffmpeg-ok-2', 0);
    const ffprobe = await loggingBinary('ffprobe-broken', 1);
    await withBinaries(ffmpeg.binary, ffprobe.binary, async () => {
      await expect(requireFfmpeg()).rejects.toMatchObject({ reason: 'ffmpeg_unavailable', message: expect.stringContaining('DOPPEL_FFPROBE_PATH') });
      await expect(requireFfmpeg()).rejects.toMatchObject({ reason: 'ffmpeg_unavailable' });
    });
    expect(await ffprobe.starts()).toBe(2);
  });

  describe('names why a binary cannot be run', () => {
    it.each([
      ['not found', async () => path.join(dir, 'no-such-ffprobe'), '(not found)'],
      ['not executable', async () => {
        const binary = path.join(dir, 'ffprobe-not-executable');
        await writeFile(binary, '#!/bin/sh\n');
        return binary;
      }, '(not executable)'],
      ['exits with an error, with the first line it wrote', async () => (await loggingBinary('ffprobe-libs', 127, 'ffprobe: error while loading shared libraries: libavdevice.so.59\\nsecond line')).binary,
        '(exited with code 127: ffprobe: error while loading shared libraries: libavdevice.so.59)'],
    ])('%s', async (_, make, cause) => {
      const ffmpeg = await loggingBinary('ffmpeg-fine', 0);
      const ffprobe = await make();
      await withBinaries(ffmpeg.binary, ffprobe, async () => {
        await expect(requireFfmpeg()).rejects.toMatchObject({
          reason: 'ffmpeg_unavailable',
          message: `video processing needs ${ffprobe}, which cannot be run ${cause}: install ffmpeg or set DOPPEL_FFPROBE_PATH`,
        });
      });
    });
  });
});
