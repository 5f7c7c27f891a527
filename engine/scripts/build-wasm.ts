import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileWat } from './compile-wat';

/**
 * Writes the engine's WebAssembly (each src/wasm/*.wasm) from its text source. The binaries are
 * committed, so the engine needs no compiler at run time; a test checks each matches its source.
 * Run: pnpm --filter @doppel/engine build:wasm
 */
const folder = fileURLToPath(new URL('../src/wasm/', import.meta.url));
for (const name of (await readdir(folder)).filter((file) => file.endsWith('.wat'))) {
  const source = path.join(folder, name);
  const target = source.replace(/\.wat$/, '.wasm');
  const binary = await compileWat(source, await readFile(source, 'utf8'));
  await writeFile(target, binary);
  console.log(`wrote ${target} (${binary.length} bytes)`);
}
