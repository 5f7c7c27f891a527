import { readFileSync } from 'node:fs';

// The part of the WebAssembly API used here: Node 20's types leave it out, and the DOM's library,
// which has it, would bring in the browser's globals too.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- declarations merge into the global namespace
  namespace WebAssembly {
    class Module {
      constructor(bytes: Uint8Array);
    }
    class Instance {
      constructor(module: Module);
      readonly exports: Record<string, unknown>;
    }
    class Memory {
      readonly buffer: ArrayBuffer;
      grow(pages: number): number;
    }
  }
}

interface BoxBlurExports {
  memory: WebAssembly.Memory;
  gaussian(image: number, spare: number, sums: number, channels: number, width: number, height: number, radius: number): void;
}

/** Compiled once per thread (each engine thread loads its own modules); about 1 kB. */
const compiled = new WebAssembly.Module(readFileSync(new URL('./box-blur.wasm', import.meta.url)));

/**
 * Bytes of WebAssembly memory the kept instance may grow to (the swaps of the 1920 px demo photos
 * need at most 2.4 MB). A WebAssembly memory never shrinks, so a larger image is blurred in an
 * instance of its own, dropped with its memory once done.
 */
const KEEP_BYTES = 16 * 2 ** 20;
const PAGE = 65_536;

let kept: BoxBlurExports | undefined;

function instantiate(): BoxBlurExports {
  const { memory, gaussian } = new WebAssembly.Instance(compiled).exports;
  if (!(memory instanceof WebAssembly.Memory) || typeof gaussian !== 'function') throw new Error('box-blur.wasm exports no memory or gaussian');
  return { memory, gaussian: gaussian as BoxBlurExports['gaussian'] };
}

/** An instance whose memory holds at least `bytes`. */
function instanceFor(bytes: number): BoxBlurExports {
  const kernel = bytes <= KEEP_BYTES ? (kept ??= instantiate()) : instantiate();
  const short = bytes - kernel.memory.buffer.byteLength;
  if (short > 0) kernel.memory.grow(Math.ceil(short / PAGE));
  return kernel;
}

/**
 * Three passes of a separable box blur of `radius` over an interleaved image of `channels`
 * channels (an even number), in place: about a Gaussian of sigma ~ `radius`, zero beyond the
 * image's edges. Run in WebAssembly (box-blur.wat); the image is copied in and back.
 */
export function gaussianInPlace(image: Float32Array, channels: number, width: number, height: number, radius: number): void {
  const bytes = image.length * 4;
  const kernel = instanceFor(bytes * 2 + width * channels * 8);
  const heap = new Float32Array(kernel.memory.buffer, 0, image.length);
  heap.set(image);
  kernel.gaussian(0, bytes, bytes * 2, channels, width, height, radius);
  image.set(heap);
}
