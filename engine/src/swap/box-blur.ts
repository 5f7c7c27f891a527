import { exportedMemory, wasmKernel, type KernelInstance } from '../wasm/wasm-kernel';

interface BoxBlurKernel extends KernelInstance {
  gaussian(image: number, spare: number, sums: number, channels: number, width: number, height: number, radius: number): void;
}

/**
 * About 1 kB. The kept instance may grow to 16 MB of memory: the swaps of the 1920 px demo photos
 * need at most 2.4 MB.
 */
const boxBlurFor = wasmKernel<BoxBlurKernel>('./box-blur.wasm', 16 * 2 ** 20, (exports) => {
  const { gaussian } = exports;
  if (typeof gaussian !== 'function') throw new Error('box-blur.wasm exports no gaussian');
  return { memory: exportedMemory(exports, 'box-blur.wasm'), gaussian: gaussian as BoxBlurKernel['gaussian'] };
});

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
