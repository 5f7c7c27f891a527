import initWabt from 'wabt';

/** The binary of a WebAssembly text module (SIMD allowed), validated. */
export async function compileWat(name: string, text: string): Promise<Uint8Array> {
  const wabt = await initWabt();
  const module = wabt.parseWat(name, text, { simd: true });
  try {
    module.validate();
    return module.toBinary({}).buffer;
  } finally {
    module.destroy();
  }
}
