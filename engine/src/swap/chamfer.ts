import { copiedFloats, exportedFunctions, exportedMemory, wasmKernel, type KernelInstance } from '../wasm/wasm-kernel';

interface ChamferKernel extends KernelInstance {
  chamfer(inside: number, distance: number, width: number, height: number): void;
}

/** About 0.6 kB. The kept instance may grow to 16 MB of memory: the largest face box of the demo photos needs 0.4 MB. */
const chamferFor = wasmKernel<ChamferKernel>('./chamfer.wasm', 16 * 2 ** 20, (exports) => ({
  memory: exportedMemory(exports, 'chamfer.wasm'),
  ...exportedFunctions<ChamferKernel>(exports, 'chamfer.wasm', ['chamfer']),
}));

/**
 * Per pixel of a `width` x `height` mask, its distance from the nearest pixel outside `inside`, in
 * thirds of a pixel, by a two-pass 3-4 chamfer transform: 0 outside, 1e6 where nothing outside is
 * reached. Run in WebAssembly (chamfer.wat); the mask is copied in and the distances out.
 */
export function chamfer(inside: Uint8Array, width: number, height: number): Float32Array {
  const pixels = width * height;
  const at = Math.ceil(pixels / 8) * 8;
  // Room for whole groups of four distances: the kernel converts them to float32 four at a time.
  const kernel = chamferFor(at + Math.ceil(pixels / 4) * 16);
  new Uint8Array(kernel.memory.buffer, 0, pixels).set(inside);
  kernel.chamfer(0, at, width, height);
  return copiedFloats(kernel.memory, at, pixels);
}
