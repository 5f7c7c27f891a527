import * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

/**
 * How close to a half a source position worked out in doubles may come before it is worked out
 * again in 32-bit floats: the two differ by a few float steps (under 0.002 at 4096 px), so further
 * from a half both round to the same pixel.
 */
const NEAR_HALF = 0.01;

/**
 * The WASM backend's `RotateWithOffset` (nearest pixel, as tfjs-backend-wasm 4.22 ships it),
 * written again in JavaScript with the same output, value for value, for RGB float images.
 *
 * Human rotates the whole image about each tilted face before reading its mesh, and then uses only
 * a crop around the face. The backend's kernel works out every channel's source position apart
 * in 32-bit floats, which made it the largest single cost of detecting faces: 10-17 ms per tilted
 * face on a 1024 x 746 image, more than the face models themselves; this one takes about 8 ms. It
 * works the position out once per pixel in doubles and repeats the kernel's float arithmetic only
 * where the two could round differently.
 */
function rotateWithOffset(args: Parameters<tf.KernelFunc>[0], original: tf.KernelFunc): tf.TensorInfo | tf.TensorInfo[] {
  const { inputs, attrs, backend } = args;
  const image = inputs.image!;
  const [batch, height, width, channels] = image.shape as [number, number, number, number];
  // Human only rotates RGB float images; anything else keeps the backend's own kernel.
  if (channels !== 3 || image.dtype !== 'float32') return original(args);
  const wasm = backend as BackendWasm;
  const { radians, fillValue, center } = attrs as Pick<tf.RotateWithOffsetAttrs, 'radians' | 'fillValue' | 'center'>;
  const out = wasm.makeOutput(image.shape, image.dtype);
  // Views into the WASM heap are taken only after the output is made: making it can grow (and move) the heap.
  const from = wasm.typedArrayFromHeap(image) as Float32Array;
  const to = wasm.typedArrayFromHeap(out) as Float32Array;
  const f = Math.fround;
  const [centreX, centreY] = tf.backend_util.getImageCenter(center, height, width).map(f) as [number, number];
  const sin = f(Math.sin(f(radians)));
  const cos = f(Math.cos(f(radians)));
  const [fill0, fill1, fill2] = typeof fillValue === 'number' ? [fillValue, fillValue, fillValue] : fillValue;
  let at = 0;
  for (let b = 0; b < batch; b++) {
    const base = b * width * height * 3;
    for (let y = 0; y < height; y++) {
      const dy = f(y - centreY);
      const dySin = f(dy * sin);
      const dyCos = f(dy * cos);
      const shiftX = centreX - dySin + 0.5;
      const shiftY = centreY + dyCos + 0.5;
      for (let x = 0; x < width; x++, at += 3) {
        const dx = x - centreX;
        const ux = dx * cos + shiftX;
        const uy = dx * sin + shiftY;
        let sx = Math.floor(ux);
        let sy = Math.floor(uy);
        if (ux - sx < NEAR_HALF || ux - sx > 1 - NEAR_HALF) sx = floatSum(dx, cos, -dySin, centreX);
        if (uy - sy < NEAR_HALF || uy - sy > 1 - NEAR_HALF) sy = floatSum(dx, sin, dyCos, centreY);
        // Unsigned, a negative position is out of range too.
        if (sx >>> 0 < width && sy >>> 0 < height) {
          const src = base + (sy * width + sx) * 3;
          to[at] = from[src]!;
          to[at + 1] = from[src + 1]!;
          to[at + 2] = from[src + 2]!;
        } else {
          to[at] = fill0;
          to[at + 1] = fill1;
          to[at + 2] = fill2;
        }
      }
    }
  }
  return out;
}

/** The kernel's own sum in 32-bit floats, `(d * a + b) + centre`, rounded as C's `round` does (halves away from zero). */
function floatSum(d: number, a: number, b: number, centre: number): number {
  const f = Math.fround;
  const v = f(f(f(f(d) * a) + b) + centre);
  return v >= 0 ? Math.floor(v + 0.5) : -Math.floor(0.5 - v);
}

/** Puts `rotateWithOffset` in place of the WASM backend's own kernel (once per thread, after the backend is up). */
export function registerRotateKernel(): void {
  const original = tf.getKernel(tf.RotateWithOffset, 'wasm');
  if (!original) throw new Error('the wasm backend has no RotateWithOffset kernel');
  tf.unregisterKernel(tf.RotateWithOffset, 'wasm');
  tf.registerKernel({ kernelName: tf.RotateWithOffset, backendName: 'wasm', kernelFunc: (args) => rotateWithOffset(args, original.kernelFunc) });
}
