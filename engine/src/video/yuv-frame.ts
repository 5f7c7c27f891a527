import { copiedBytes, exportedFunctions, exportedMemory, HeapPlan, wasmKernel, type KernelInstance } from '../wasm/wasm-kernel';

interface YuvKernel extends KernelInstance {
  convert(rgb: number, width: number, height: number, y: number, u: number, v: number): void;
}

/** The kept instance may grow to 16 MB of memory: a 1920x1080 frame and its planes take 9.3 MB. */
const yuvKernelFor = wasmKernel<YuvKernel>('./rgb-to-yuv.wasm', 16 * 2 ** 20, (exports) => ({
  memory: exportedMemory(exports, 'rgb-to-yuv.wasm'),
  ...exportedFunctions<YuvKernel>(exports, 'rgb-to-yuv.wasm', ['convert']),
}));

/** A side of a 4:2:0 frame: chroma comes in 2x2 blocks, so an odd side gains a pixel. */
export const evenSide = (side: number): number => side + (side % 2);

/**
 * An RGB frame as yuv420p, the Y, U and V planes one after another at even sides (`evenSide`),
 * converted in WebAssembly (rgb-to-yuv.wat). A frame of odd width or height gets a black column
 * on its right or a black row at its bottom, as ffmpeg's pad filter gave it when it was handed RGB.
 */
export function yuv420(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const [w, h] = [evenSide(width), evenSide(height)];
  const pixels = w * h;
  const plan = new HeapPlan();
  // Eight pixels are read as 32 bytes: 16 spare after the frame.
  const at = { rgb: plan.take(pixels * 3 + 16), yuv: plan.take((pixels * 3) / 2) };
  const kernel = yuvKernelFor(plan.size);
  const memory = new Uint8Array(kernel.memory.buffer);
  if (w === width && h === height) {
    memory.set(rgb, at.rgb);
  } else {
    memory.fill(0, at.rgb, at.rgb + pixels * 3);
    for (let y = 0; y < height; y++) memory.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), at.rgb + y * w * 3);
  }
  kernel.convert(at.rgb, w, h, at.yuv, at.yuv + pixels, at.yuv + pixels + pixels / 4);
  return copiedBytes(kernel.memory, at.yuv, (pixels * 3) / 2);
}
