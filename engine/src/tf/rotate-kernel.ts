import * as tf from '@tensorflow/tfjs-core';
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

/**
 * How close to a half a source position worked out in doubles may come before it is worked out
 * again in 32-bit floats: the two differ by a few float steps (under 0.002 at 4096 px), so further
 * from a half both round to the same pixel.
 */
const NEAR_HALF = 0.01;

/** A rotation of an RGB float image, made but not yet written: what `writeRotation` needs. */
interface Rotation {
  /** The image's data, kept (one reference held) until the rotation is written whole or disposed. */
  source: tf.DataId;
  batch: number;
  height: number;
  width: number;
  centreX: number;
  centreY: number;
  sin: number;
  cos: number;
  fill: [number, number, number];
}

/** Rows and columns of one image of a batch: [y0, y1) x [x0, x1). */
interface Rect {
  b: number;
  y0: number;
  y1: number;
  x0: number;
  x1: number;
}

/**
 * The WASM backend's `RotateWithOffset` (nearest pixel, as tfjs-backend-wasm 4.22 ships it),
 * written again in JavaScript with the same output, value for value, for RGB float images.
 *
 * Human rotates the whole image about each tilted face before reading its mesh, and then reads
 * only a crop around the face (`cropAndResize`). Writing the whole rotated image was the largest
 * single cost of detecting faces: 10-17 ms per tilted face on a 1024 x 746 image with the
 * backend's kernel, about 8 ms with this one, a third of a 1024 px photo's detection. So the
 * rotation is only recorded here, and its pixels are written when read: by `cropAndResize`, just
 * the rows and columns its boxes reach; by anything else (a read, another kernel), whole.
 *
 * Each pixel's source position is worked out once in doubles, and the kernel's float arithmetic
 * repeated only where the two could round differently.
 */
function rotateWithOffset(args: Parameters<tf.KernelFunc>[0], original: tf.KernelFunc): tf.TensorInfo | tf.TensorInfo[] {
  const { inputs, attrs, backend } = args;
  const image = inputs.image!;
  const [batch, height, width, channels] = image.shape as [number, number, number, number];
  // Human only rotates RGB float images; anything else keeps the backend's own kernel.
  if (channels !== 3 || image.dtype !== 'float32') return original(args);
  const wasm = backend as BackendWasm;
  const { radians, fillValue, center } = attrs as Pick<tf.RotateWithOffsetAttrs, 'radians' | 'fillValue' | 'center'>;
  const f = Math.fround;
  const [centreX, centreY] = tf.backend_util.getImageCenter(center, height, width).map(f) as [number, number];
  const fill: Rotation['fill'] = typeof fillValue === 'number' ? [fillValue, fillValue, fillValue] : fillValue;
  const out = wasm.makeOutput(image.shape, image.dtype);
  wasm.incRef(image.dataId);
  deferred.set(out.dataId, { source: image.dataId, batch, height, width, centreX, centreY, sin: f(Math.sin(f(radians))), cos: f(Math.cos(f(radians))), fill });
  return out;
}

/** Rotations not yet written whole, by their output's data id. */
const deferred = new WeakMap<tf.DataId, Rotation>();
/** Set while the backend's own code reads a deferred rotation's entry that must not be written whole (a crop, a dispose). */
let bypass = false;

/** Writes `rect` of the rotation into `to`, the output's pixels, from `from`, the source's. */
function writeRotation(r: Rotation, from: Float32Array, to: Float32Array, { b, y0, y1, x0, x1 }: Rect): void {
  const f = Math.fround;
  const { width, height, centreX, centreY, sin, cos } = r;
  const [fill0, fill1, fill2] = r.fill;
  const base = b * width * height * 3;
  for (let y = y0; y < y1; y++) {
    const dy = f(y - centreY);
    const dySin = f(dy * sin);
    const dyCos = f(dy * cos);
    const shiftX = centreX - dySin + 0.5;
    const shiftY = centreY + dyCos + 0.5;
    for (let x = x0, at = base + (y * width + x0) * 3; x < x1; x++, at += 3) {
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

/** The kernel's own sum in 32-bit floats, `(d * a + b) + centre`, rounded as C's `round` does (halves away from zero). */
function floatSum(d: number, a: number, b: number, centre: number): number {
  const f = Math.fround;
  const v = f(f(f(f(d) * a) + b) + centre);
  return v >= 0 ? Math.floor(v + 0.5) : -Math.floor(0.5 - v);
}

/** Writes `rects` of a deferred rotation (every pixel when none are given); a rotation written whole is no longer deferred and lets its source go. */
function write(wasm: BackendWasm, dataId: tf.DataId, rects?: Rect[]): void {
  const r = deferred.get(dataId)!;
  const shape = [r.batch, r.height, r.width, 3];
  if (!rects) deferred.delete(dataId);
  bypassing(() => {
    const from = wasm.typedArrayFromHeap({ dataId: r.source, shape, dtype: 'float32' }) as Float32Array;
    const to = wasm.typedArrayFromHeap({ dataId, shape, dtype: 'float32' }) as Float32Array;
    const whole = Array.from({ length: r.batch }, (_, b) => ({ b, y0: 0, y1: r.height, x0: 0, x1: r.width }));
    for (const rect of rects ?? whole) writeRotation(r, from, to, rect);
  });
  if (!rects) wasm.disposeData(r.source);
}

/**
 * The rows and columns `cropAndResize` reads for each of its boxes (normalised y1, x1, y2, x2 of
 * the image at `boxInd`): a pixel's position is y1 * (height - 1) and on to y2 * (height - 1), and
 * it reads the pixels on either side; one more on each side covers the backend's float rounding.
 */
function cropRects(wasm: BackendWasm, boxes: tf.TensorInfo, boxInd: tf.TensorInfo, r: Rotation): Rect[] {
  const corners = wasm.typedArrayFromHeap(boxes) as Float32Array;
  const batchOf = wasm.typedArrayFromHeap(boxInd) as Int32Array;
  const span = (a: number, b: number, size: number): [number, number] => [
    Math.max(0, Math.floor(Math.min(a, b) * (size - 1)) - 1),
    Math.min(size, Math.ceil(Math.max(a, b) * (size - 1)) + 2),
  ];
  return Array.from(batchOf, (b, n) => {
    const [y0, y1] = span(corners[n * 4]!, corners[n * 4 + 2]!, r.height);
    const [x0, x1] = span(corners[n * 4 + 1]!, corners[n * 4 + 3]!, r.width);
    return { b, y0, y1: Math.max(y0, y1), x0, x1: Math.max(x0, x1) };
  });
}

/** `cropAndResize` of a deferred rotation writes only the parts its boxes read, then crops as the backend does. */
function cropAndResize(args: Parameters<tf.KernelFunc>[0], original: tf.KernelFunc): tf.TensorInfo | tf.TensorInfo[] {
  const { image, boxes, boxInd } = args.inputs;
  const rotation = deferred.get(image!.dataId);
  if (!rotation) return original(args);
  const wasm = args.backend as BackendWasm;
  write(wasm, image!.dataId, cropRects(wasm, boxes!, boxInd!, rotation));
  return bypassing(() => original(args));
}

/** Runs `f` with deferred rotations left unwritten when looked up. */
function bypassing<T>(f: () => T): T {
  const was = bypass;
  bypass = true;
  try {
    return f();
  } finally {
    bypass = was;
  }
}

/**
 * Makes every other use of a deferred rotation see it written: the backend finds a tensor's data
 * through its `dataIdMap` (reads and every kernel alike), so that lookup writes the rotation first.
 * Disposing a rotation never read does not write it, and lets its source go.
 */
function writeDeferredWhenRead(wasm: BackendWasm): void {
  const storage = wasm.dataIdMap;
  const get = storage.get.bind(storage);
  storage.get = (dataId) => {
    if (!bypass && deferred.has(dataId)) write(wasm, dataId);
    return get(dataId);
  };
  const disposeData = wasm.disposeData.bind(wasm);
  wasm.disposeData = (dataId, force) => {
    const rotation = deferred.get(dataId);
    if (!rotation) return disposeData(dataId, force);
    const freed = bypassing(() => disposeData(dataId, force));
    if (!storage.has(dataId)) {
      deferred.delete(dataId);
      wasm.disposeData(rotation.source);
    }
    return freed;
  };
}

/** Backends whose rotation and crop kernels are already ours. */
const installed = new WeakSet<object>();

/**
 * Puts `rotateWithOffset` in place of the WASM backend's own kernel, and the crop that writes only
 * what it reads of a rotation (once per thread, after the backend is up).
 */
export function registerRotateKernel(): void {
  const wasm = tf.findBackend('wasm') as BackendWasm | null;
  if (!wasm) throw new Error('the wasm backend is not up');
  if (installed.has(wasm)) return;
  installed.add(wasm);
  for (const [name, kernel] of [
    [tf.RotateWithOffset, rotateWithOffset],
    [tf.CropAndResize, cropAndResize],
  ] as const) {
    const original = tf.getKernel(name, 'wasm');
    if (!original) throw new Error(`the wasm backend has no ${name} kernel`);
    tf.unregisterKernel(name, 'wasm');
    tf.registerKernel({ kernelName: name, backendName: 'wasm', kernelFunc: (args) => kernel(args, original.kernelFunc) });
  }
  writeDeferredWhenRead(wasm);
}
