import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths, type BackendWasm } from '@tensorflow/tfjs-backend-wasm';
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

/** Crops as Human takes them (a face's box), and ones reaching past the image, upside down, one row high. */
const BOXES = [
  [0.2, 0.3, 0.7, 0.6],
  [-0.2, 0.8, 0.4, 1.3],
  [0.9, 0.6, 0.1, 0.05],
  [0.5, 0, 0.5, 1],
];

const rotate = (image: tf.Tensor4D, { radians, centre, fill }: Rotation) => tf.image.rotateWithOffset(image, radians, fill, centre);

function rotateAll(image: tf.Tensor4D): Float32Array[] {
  return ROTATIONS.map((rotation) => tf.tidy(() => rotate(image, rotation).dataSync() as Float32Array));
}

/** Every rotation's crops, as Human reads them (the rotated image goes straight to the crop). */
function cropAll(image: tf.Tensor4D, method: 'bilinear' | 'nearest'): Float32Array[] {
  const batch = image.shape[0];
  const boxInd = BOXES.map((_, n) => n % batch);
  return ROTATIONS.map((rotation) => tf.tidy(() => tf.image.cropAndResize(rotate(image, rotation), BOXES, boxInd, [7, 9], method).dataSync() as Float32Array));
}

const same = (a: Float32Array, b: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe('rotation kernel', () => {
  let images: tf.Tensor4D[];
  let four: tf.Tensor4D;
  const expected = { rotated: [] as Float32Array[][], bilinear: [] as Float32Array[][], nearest: [] as Float32Array[][], four: [] as Float32Array[] };

  // The engine's own setup (initTf) would replace the kernels at once; the backend is brought up
  // here without them, so the backend's own kernels give the expected values first.
  beforeAll(async () => {
    setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))}${path.sep}`);
    await tf.setBackend('wasm');
    images = [tf.randomUniform([1, 131, 257, 3], 0, 1, 'float32', 7), tf.randomUniform([2, 64, 48, 3], 0, 255, 'float32', 9)] as tf.Tensor4D[];
    four = tf.randomUniform([1, 40, 30, 4], 0, 1, 'float32', 11) as tf.Tensor4D;
    expected.rotated = images.map(rotateAll);
    expected.bilinear = images.map((image) => cropAll(image, 'bilinear'));
    expected.nearest = images.map((image) => cropAll(image, 'nearest'));
    expected.four = rotateAll(four);
    registerRotateKernel();
  });

  it("gives the WASM backend's own results, value for value, odd sizes and fills included", () => {
    expect(tf.getKernel(tf.RotateWithOffset, 'wasm')).toBeDefined();
    images.forEach((image, i) => {
      rotateAll(image).forEach((values, k) => expect(same(values, expected.rotated[i]![k]!), `image ${i}, rotation ${k}`).toBe(true));
    });
    // Four channels are left to the backend's kernel.
    rotateAll(four).forEach((values, k) => expect(Array.from(values)).toEqual(Array.from(expected.four[k]!)));
  });

  it("crops a rotated image to the backend's own values, bilinear and nearest, boxes past the edge included", () => {
    images.forEach((image, i) => {
      cropAll(image, 'bilinear').forEach((values, k) => expect(same(values, expected.bilinear[i]![k]!), `image ${i}, rotation ${k}, bilinear`).toBe(true));
      cropAll(image, 'nearest').forEach((values, k) => expect(same(values, expected.nearest[i]![k]!), `image ${i}, rotation ${k}, nearest`).toBe(true));
    });
  });

  it('keeps what a rotation needs of its image after the image itself is disposed', () => {
    const image = images[0]!.clone();
    const rotated = rotate(image, ROTATIONS[0]!);
    image.dispose();
    expect(same(rotated.dataSync() as Float32Array, expected.rotated[0]![0]!)).toBe(true);
    rotated.dispose();
  });

  it('gives every other kernel the rotation written whole, also after a crop wrote part of it', () => {
    const rotated = rotate(images[1]!, ROTATIONS[4]!);
    tf.image.cropAndResize(rotated, [BOXES[0]!], [1], [3, 3]).dispose();
    const doubled = tf.mul(rotated, 2);
    expect(Array.from(doubled.dataSync())).toEqual(Array.from(expected.rotated[1]![4]!, (v) => v * 2));
    tf.dispose([rotated, doubled]);
  });

  it('frees a rotation disposed unread, and the hold it had on its image', () => {
    const backend = tf.findBackend('wasm') as BackendWasm;
    const before = backend.numDataIds();
    const image = images[0]!.clone();
    const rotated = rotate(image, ROTATIONS[1]!);
    image.dispose();
    tf.image.cropAndResize(rotated, [BOXES[0]!], [0], [5, 5]).dispose();
    rotated.dispose();
    expect(backend.numDataIds()).toBe(before);
  });
});
