/** Robust colour statistics of some pixels of a Lab buffer (see `trimmedColour`). */
export interface TrimmedColour {
  /** The median of all the pixels, and the distance from it per channel beyond which a pixel is an outlier. */
  centre: number[];
  reach: number[];
  /** The pixels within reach on every channel, with their median and spread (scaled median absolute deviation). */
  kept: Int32Array;
  median: number[];
  spread: number[];
}

/**
 * Median and spread of the `indices` pixels of an interleaved Lab buffer after dropping those
 * further than `spreads` spreads (at least 1 Lab unit each) from the median on any channel: a strand
 * of hair, a glasses frame or the background among a face's skin pixels does not move them.
 */
export function trimmedColour(lab: Float32Array, indices: Int32Array, spreads: number): TrimmedColour {
  const centre = [0, 1, 2].map((k) => channelMedian(lab, indices, k));
  const reach = [0, 1, 2].map((k) => spreads * Math.max(channelMad(lab, indices, k, centre[k]!), 1));
  const kept = indices.filter((p) => [0, 1, 2].every((k) => Math.abs(lab[p * 3 + k]! - centre[k]!) <= reach[k]!));
  const median = [0, 1, 2].map((k) => channelMedian(lab, kept, k));
  const spread = [0, 1, 2].map((k) => channelMad(lab, kept, k, median[k]!));
  return { centre, reach, kept, median, spread };
}

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
