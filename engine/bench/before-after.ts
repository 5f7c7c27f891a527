import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { swapImage } from '../src/swap/swap-image';

/** Makes docs/images/engine-before-after.jpg: a demo face before and after a swap, side by side. */
const require = createRequire(import.meta.url);
const demo = (n: number) => readFile(path.join(path.dirname(require.resolve('@vladmandic/face-api')), '..', 'demo', `sample${n}.jpg`));
const crop = { left: 250, top: 200, width: 520, height: 560 };

const [target, source] = await Promise.all([demo(1), demo(2)]);
const { image } = await swapImage({ target, mappings: [{ source, targetFaceIndex: 0 }] });
const tile = (bytes: Buffer) => sharp(bytes).extract(crop).resize({ width: 360 }).toBuffer();
const [before, after, face] = await Promise.all([tile(target), tile(image), sharp(source).extract({ left: 1330, top: 60, width: 440, height: 473 }).resize({ width: 360 }).toBuffer()]);
const height = Math.round((crop.height * 360) / crop.width);
const out = await sharp({ create: { width: 3 * 360 + 16, height, channels: 3, background: '#ffffff' } })
  .composite([
    { input: face, left: 0, top: 0 },
    { input: before, left: 368, top: 0 },
    { input: after, left: 736, top: 0 },
  ])
  .jpeg({ quality: 82 })
  .toBuffer();
await writeFile(new URL('../../docs/images/engine-before-after.jpg', import.meta.url), out);
