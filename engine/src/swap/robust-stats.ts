/** Resolution of the histograms robust statistics are read from, in Lab units. */
const BIN = 0.25;
const LOW = -128;
const BINS = Math.ceil(256 / BIN);

/** Median of channel `k` of the `indices` pixels of an interleaved 3-channel Lab buffer (to `BIN`). */
export function channelMedian(pixels: Float32Array, indices: Int32Array, k: number): number {
  return quantile(pixels, indices, k, 0.5, (v) => v);
}

/** Median absolute deviation from `centre` of channel `k`, scaled to estimate a normal spread. */
export function channelMad(pixels: Float32Array, indices: Int32Array, k: number, centre: number): number {
  return 1.4826 * quantile(pixels, indices, k, 0.5, (v) => Math.abs(v - centre));
}

function quantile(pixels: Float32Array, indices: Int32Array, k: number, q: number, map: (v: number) => number): number {
  if (indices.length === 0) return 0;
  const counts = new Uint32Array(BINS);
  for (let n = 0; n < indices.length; n++) {
    const bin = Math.floor((map(pixels[indices[n]! * 3 + k]!) - LOW) / BIN);
    counts[bin < 0 ? 0 : bin >= BINS ? BINS - 1 : bin]!++;
  }
  const wanted = q * indices.length;
  let seen = 0;
  for (let bin = 0; bin < BINS; bin++) {
    seen += counts[bin]!;
    if (seen >= wanted) return LOW + (bin + 0.5) * BIN;
  }
  return LOW + 256;
}
