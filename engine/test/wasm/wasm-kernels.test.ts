import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { compileWat } from '../../scripts/compile-wat';

const folder = new URL('../../src/wasm/', import.meta.url);
const sources = (await readdir(folder)).filter((file) => file.endsWith('.wat'));

describe('the engine\'s WebAssembly', () => {
  it('has its kernels in the wasm folder', () => {
    expect(sources).toEqual(expect.arrayContaining(['box-blur.wat', 'chamfer.wat', 'coarse-low-pass.wat', 'edge-blur.wat', 'resample-crop.wat', 'rgb-to-yuv.wat', 'warp-pixels.wat', 'working-grid.wat']));
  });

  it.each(sources)('is built from its source: the committed binary is what %s compiles to', async (name) => {
    const built = await compileWat(name, await readFile(new URL(name, folder), 'utf8'));
    const committed = await readFile(new URL(name.replace(/\.wat$/, '.wasm'), folder));
    expect(Buffer.from(built).equals(committed)).toBe(true);
  });
});
