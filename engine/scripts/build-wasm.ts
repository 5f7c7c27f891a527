import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compileWat } from './compile-wat';

/**
 * Writes the engine's WebAssembly (src/swap/box-blur.wasm) from its text source. The binary is
 * committed, so the engine needs no compiler at run time; a test checks it matches its source.
 * Run: pnpm --filter @doppel/engine build:wasm
 */
const source = fileURLToPath(new URL('../src/swap/box-blur.wat', import.meta.url));
const target = source.replace(/\.wat$/, '.wasm');
const binary = await compileWat(source, await readFile(source, 'utf8'));
await writeFile(target, binary);
console.log(`wrote ${target} (${binary.length} bytes)`);
