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
    class Global {
      readonly value: unknown;
    }
  }
}

const PAGE = 65_536;

/** An instance of one of the engine's WebAssembly modules: its memory, and its exports bound by the module's loader. */
export interface KernelInstance {
  memory: WebAssembly.Memory;
}

/**
 * The engine's hand-written WebAssembly module `file` (in this folder; committed, built by
 * `pnpm --filter @doppel/engine build:wasm`), compiled once per thread (each engine thread loads
 * its own modules). Returns a function giving an instance whose memory holds at least `bytes`: the
 * thread's kept instance while that stays within `keepBytes`, else one of its own, dropped with
 * its memory once the caller is done (a WebAssembly memory never shrinks). `bind` takes the
 * instance's exports to the loader's typed functions, and throws where one is missing.
 */
export function wasmKernel<T extends KernelInstance>(file: string, keepBytes: number, bind: (exports: Record<string, unknown>) => T): (bytes: number) => T {
  const compiled = new WebAssembly.Module(readFileSync(new URL(file, import.meta.url)));
  let kept: T | undefined;
  return (bytes) => {
    const kernel = bytes <= keepBytes ? (kept ??= bind(new WebAssembly.Instance(compiled).exports)) : bind(new WebAssembly.Instance(compiled).exports);
    const short = bytes - kernel.memory.buffer.byteLength;
    if (short > 0) kernel.memory.grow(Math.ceil(short / PAGE));
    return kernel;
  };
}

/** The function-valued members of a kernel's interface. */
type KernelFunctions<T> = { [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] };

/**
 * The module's exported functions `names`, typed as the kernel's interface declares them, or a
 * thrown error naming `file` and the first one missing (a `.wasm` out of step with its loader).
 */
export function exportedFunctions<T>(exports: Record<string, unknown>, file: string, names: readonly (keyof KernelFunctions<T> & string)[]): KernelFunctions<T> {
  const functions: Record<string, unknown> = {};
  for (const name of names) {
    if (typeof exports[name] !== 'function') throw new Error(`${file} exports no ${name}`);
    functions[name] = exports[name];
  }
  // Each checked above to be a function; their signatures are the module's, declared by the caller.
  return functions as KernelFunctions<T>;
}

/** The module's exported memory, or a thrown error naming `file`. */
export function exportedMemory(exports: Record<string, unknown>, file: string): WebAssembly.Memory {
  const { memory } = exports;
  if (!(memory instanceof WebAssembly.Memory)) throw new Error(`${file} exports no memory`);
  return memory;
}

/** Byte offsets in a kernel's memory, handed out in order, each aligned to 8 (a float64's). */
export class HeapPlan {
  private end = 0;

  /** The offset of a fresh stretch of `bytes`. */
  take(bytes: number): number {
    const at = this.end;
    this.end += Math.ceil(bytes / 8) * 8;
    return at;
  }

  /** Bytes taken so far. */
  get size(): number {
    return this.end;
  }
}

/**
 * Copies of a kernel's results, the caller's own, from byte `at` of `memory`: a typed array built
 * from a view copies at memory speed, where the view's `slice` took 3-5 times as long (a 231x258
 * face's RGB floats: 0.03 ms against 0.11-0.16).
 */
export function copiedFloats(memory: WebAssembly.Memory, at: number, length: number): Float32Array {
  return new Float32Array(new Float32Array(memory.buffer, at, length));
}

/** As `copiedFloats`, for bytes. */
export function copiedBytes(memory: WebAssembly.Memory, at: number, length: number): Uint8Array {
  return new Uint8Array(new Uint8Array(memory.buffer, at, length));
}
