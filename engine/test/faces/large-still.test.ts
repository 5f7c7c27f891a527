import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_PIXELS } from '../../src/faces/decode-image';
import { describeFaces, type FaceDescription } from '../../src/faces/describe-faces';
import { loadHuman } from '../../src/faces/human';
import { initTf } from '../../src/tf/backend';
import { demoPhoto } from './fixtures';

const MiB = 1024 * 1024;

/** The thread's WebAssembly heap: it grows to fit the largest tensors ever held, and never shrinks. */
async function wasmHeapBytes(): Promise<number> {
  const tf = await initTf();
  const { wasm } = tf.backend() as BackendWasm;
  // The emscripten module's view of its memory (its type is not in tfjs's declarations).
  if (!('HEAPU8' in wasm) || !(wasm.HEAPU8 instanceof Uint8Array)) throw new Error('the wasm backend shows no heap');
  return wasm.HEAPU8.byteLength;
}

let still: Buffer;
let photo: FaceDescription;

beforeAll(async () => {
  await loadHuman();
  // Demo photo 1 (1920 x 1280, three people) blown up to just under the 50-megapixel input limit.
  still = await sharp(await demoPhoto(1)).resize(8640, 5760).jpeg({ quality: 80 }).toBuffer();
  photo = await describeFaces(await demoPhoto(1));
}, 120_000);

describe('a 50-megapixel still', () => {
  it('is within the input limit, so it reaches the face models', async () => {
    const { width, height } = await sharp(still).metadata();
    expect(width! * height!).toBeLessThanOrEqual(MAX_INPUT_PIXELS);
    expect(width! * height!).toBeGreaterThan(49_000_000);
  });

  it('has its faces found, boxed in its own pixels, while the WebAssembly heap stays far below what its full-size tensors would take', { timeout: 120_000 }, async () => {
    const result = await describeFaces(still);
    // Given to the models whole, the still is 50 M x 3 channels x 4 bytes = 593 MiB as one int32
    // tensor, and as much again as float32 (measured: the heap grew to 1.8 GiB). On the bounded
    // copy it stays under 300 MiB, models included.
    expect(await wasmHeapBytes()).toBeLessThan(400 * MiB);

    expect(result).toMatchObject({ width: 8640, height: 5760 });
    expect(result.faces).toHaveLength(photo.faces.length);
    // The same faces as on the 1920 px photo, 4.5 times larger, within a few of its pixels.
    result.faces.forEach(({ box }, i) => {
      const small = photo.faces[i]!.box;
      for (const side of ['x', 'y', 'width', 'height'] as const) expect(Math.abs(box[side] / 4.5 - small[side])).toBeLessThan(6);
    });
  });
});
