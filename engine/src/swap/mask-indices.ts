/** The positions of a mask's set pixels, in order. */
export function indicesOf(mask: Uint8Array): Int32Array {
  let count = 0;
  for (let p = 0; p < mask.length; p++) count += mask[p]!;
  const out = new Int32Array(count);
  for (let p = 0, n = 0; p < mask.length; p++) if (mask[p]) out[n++] = p;
  return out;
}

/** Every position of a buffer of `count` pixels. */
export function allPixels(count: number): Int32Array {
  const out = new Int32Array(count);
  for (let p = 0; p < count; p++) out[p] = p;
  return out;
}
