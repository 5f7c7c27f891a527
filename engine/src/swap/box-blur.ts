import { copiedFloats, exportedFunctions, exportedMemory, HeapPlan, wasmKernel, type KernelInstance } from '../wasm/wasm-kernel';

interface BoxBlurKernel extends KernelInstance {
  gaussian(image: number, spare: number, sums: number, channels: number, width: number, height: number, radius: number): void;
  packMasked(values: number, mask: number, image: number, pixels: number): void;
  maskedMeans(image: number, at: number, count: number, mean: number, weight: number): void;
  packMap(map: number, mask: number, image: number, pixels: number): void;
  mapRatios(image: number, out: number, pixels: number): void;
}

/**
 * About 1 kB. The kept instance may grow to 16 MB of memory: the swaps of the 1920 px demo photos
 * need at most 2.4 MB.
 */
const boxBlurFor = wasmKernel<BoxBlurKernel>('./box-blur.wasm', 16 * 2 ** 20, (exports) => ({
  memory: exportedMemory(exports, 'box-blur.wasm'),
  ...exportedFunctions<BoxBlurKernel>(exports, 'box-blur.wasm', ['gaussian', 'packMasked', 'maskedMeans', 'packMap', 'mapRatios']),
}));

/**
 * Three passes of a separable box blur of `radius` over an interleaved image of `channels`
 * channels (an even number), in place: about a Gaussian of sigma ~ `radius`, zero beyond the
 * image's edges. Run in WebAssembly (box-blur.wat); the image is copied in and back.
 */
export function gaussianInPlace(image: Float32Array, channels: number, width: number, height: number, radius: number): void {
  const bytes = image.length * 4;
  const kernel = boxBlurFor(bytes * 2 + width * channels * 8);
  const heap = new Float32Array(kernel.memory.buffer, 0, image.length);
  heap.set(image);
  kernel.gaussian(0, bytes, bytes * 2, channels, width, height, radius);
  image.set(heap);
}

/**
 * The masked low-pass at full resolution (see `maskedBlur`) in one go through the kernel: the
 * masked RGB values and the mask as four channels, blurred as `gaussianInPlace` blurs, then per
 * pixel of `at` (every pixel when not given) the blurred mask and the blurred values over it.
 * Only the inputs are copied in and the two results out.
 */
export function maskedGaussian(values: Float32Array, mask: Uint8Array, width: number, height: number, radius: number, at?: Int32Array): { mean: Float32Array; weight: Float32Array } {
  const pixels = width * height;
  const count = at ? at.length : pixels;
  const plan = new HeapPlan();
  // The image comes first, so no list of pixels is at offset 0 (which tells the kernel there is none).
  const place = {
    image: plan.take(pixels * 16),
    spare: plan.take(pixels * 16),
    sums: plan.take(width * 4 * 8),
    values: plan.take(pixels * 12),
    mask: plan.take(pixels),
    at: at ? plan.take(count * 4) : 0,
    mean: plan.take(count * 12),
    weight: plan.take(count * 4),
  };
  const kernel = boxBlurFor(plan.size);
  const { buffer } = kernel.memory;
  new Float32Array(buffer, place.values, pixels * 3).set(values);
  new Uint8Array(buffer, place.mask, pixels).set(mask);
  if (at) new Int32Array(buffer, place.at, count).set(at);
  kernel.packMasked(place.values, place.mask, place.image, pixels);
  kernel.gaussian(place.image, place.spare, place.sums, 4, width, height, radius);
  kernel.maskedMeans(place.image, place.at, count, place.mean, place.weight);
  return { mean: copiedFloats(kernel.memory, place.mean, count * 3), weight: copiedFloats(kernel.memory, place.weight, count) };
}

/**
 * The one-channel masked low-pass at full resolution (see `blurMap`) in one go through the kernel:
 * the map weighted by `mask` (1 everywhere when not given) and the weights, blurred as
 * `gaussianInPlace` blurs, then the blurred map over the blurred weights.
 */
export function maskedMapGaussian(map: Float32Array, width: number, height: number, radius: number, mask?: Uint8Array): Float32Array {
  const pixels = width * height;
  const plan = new HeapPlan();
  // The image comes first, so no mask is at offset 0 (which tells the kernel there is none).
  const place = {
    image: plan.take(pixels * 8),
    spare: plan.take(pixels * 8),
    sums: plan.take(width * 2 * 8),
    map: plan.take(pixels * 4),
    mask: mask ? plan.take(pixels) : 0,
    out: plan.take(pixels * 4),
  };
  const kernel = boxBlurFor(plan.size);
  const { buffer } = kernel.memory;
  new Float32Array(buffer, place.map, pixels).set(map);
  if (mask) new Uint8Array(buffer, place.mask, pixels).set(mask);
  kernel.packMap(place.map, place.mask, place.image, pixels);
  kernel.gaussian(place.image, place.spare, place.sums, 2, width, height, radius);
  kernel.mapRatios(place.image, place.out, pixels);
  return copiedFloats(kernel.memory, place.out, pixels);
}
