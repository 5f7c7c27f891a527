import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A WebM of `seconds` of a grey 32x32 picture at `fps`, whose Segment Duration element is then
 * overwritten to say `claimedSeconds`: what an uploader can write into any file's header.
 */
export async function lyingWebm(file: string, options: { seconds: number; fps: number; claimedSeconds: number }): Promise<Buffer> {
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `color=c=gray:s=32x32:r=${options.fps}`,
    '-t', String(options.seconds),
    '-c:v', 'libvpx', '-b:v', '10k', '-g', String(options.seconds * options.fps),
    file,
  ]);
  const bytes = await readFile(file);
  // EBML id 0x4489 (Duration), then its size (0x88: an 8-byte float, 0x84: a 4-byte one), in ms.
  const at = bytes.indexOf(Buffer.from([0x44, 0x89]));
  if (at < 0) throw new Error('no Duration element in the WebM');
  const claimedMs = options.claimedSeconds * 1000;
  if (bytes[at + 2] === 0x88) bytes.writeDoubleBE(claimedMs, at + 3);
  else if (bytes[at + 2] === 0x84) bytes.writeFloatBE(claimedMs, at + 3);
  else throw new Error(`unexpected Duration size byte ${bytes[at + 2]}`);
  await writeFile(file, bytes);
  return bytes;
}
