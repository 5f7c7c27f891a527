import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerRotateKernel } from '../../src/tf/rotate-kernel';

const require = createRequire(import.meta.url);

type Rotation = { radians: number; centre: number | [number, number]; fill: number | [number, number, number] };

/** Half-pixel centres, steep and slight angles, a turn past 90 degrees, a coloured fill. */
const ROTATIONS: Rotation[] = [
  { radians: 0.3, centre: [0.4, 0.6], fill: 0 },
  { radians: -0.21, centre: [0.5, 0.5], fill: 0 },
  { radians: -1.2, centre: [0.1, 0.95], fill: 0 },
  { radians: 2.8, centre: 0.5, fill: 0 },
  { radians: 0.25, centre: [0.77, 0.13], fill: [10, 20, 30] },
];

function rotateAll(image: tf.Tensor4D): Float32Array[] {
  return ROTATIONS.map(({ radians, centre, fill }) => tf.tidy(() => tf.image.rotateWithOffset(image, radians, fill, centre).dataSync() as Float32Array));
}

describe('rotation kernel', () => {
  // The engine's own setup (initTf) would replace the kernel at once; the backend is brought up
  // here without it, so the backend's own kernel can be run first.
  beforeAll(async () => {
    setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))}${path.sep}`);
    await tf.setBackend('wasm');
  });

  it("gives the WASM backend's own results, value for value, odd sizes and fills included", () => {
    const images = [tf.randomUniform([1, 131, 257, 3], 0, 1, 'float32', 7), tf.randomUniform([2, 64, 48, 3], 0, 255, 'float32', 9)] as tf.Tensor4D[];
    const four = tf.randomUniform([1, 40, 30, 4], 0, 1, 'float32', 11) as tf.Tensor4D;
    const expected = images.map(rotateAll);
    const expectedFour = rotateAll(four);
    registerRotateKernel();
    expect(tf.getKernel(tf.RotateWithOffset, 'wasm')).toBeDefined();
    images.forEach((image, i) => {
      const got = rotateAll(image);
      got.forEach((values, k) => expect(Buffer.from(values.buffer).equals(Buffer.from(expected[i]![k]!.buffer)), `image ${i}, rotation ${k}`).toBe(true));
    });
    // Four channels are left to the backend's kernel.
    rotateAll(four).forEach((values, k) => expect(Array.from(values)).toEqual(Array.from(expectedFour[k]!)));
  });
});
