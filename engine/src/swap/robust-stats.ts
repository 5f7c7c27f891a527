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
  const centre = channelMedians(lab, indices);
  const reach = channelMads(lab, indices, centre).map((mad) => spreads * Math.max(mad, 1));
  const kept = withinReach(lab, indices, centre, reach);
  const median = channelMedians(lab, kept);
  return { centre, reach, kept, median, spread: channelMads(lab, kept, median) };
}

/** The `indices` pixels within `reach` of `centre` on every channel (a plain loop: this runs on every video frame). */
function withinReach(lab: Float32Array, indices: Int32Array, centre: number[], reach: number[]): Int32Array {
  const [c0, c1, c2] = centre as [number, number, number];
  const [r0, r1, r2] = reach as [number, number, number];
  const out = new Int32Array(indices.length);
  let count = 0;
  for (let n = 0; n < indices.length; n++) {
    const i = indices[n]! * 3;
    if (Math.abs(lab[i]! - c0) <= r0 && Math.abs(lab[i + 1]! - c1) <= r1 && Math.abs(lab[i + 2]! - c2) <= r2) out[count++] = indices[n]!;
  }
  return out.slice(0, count);
}

/** Resolution of the histograms robust statistics are read from, in Lab units. */
const BIN = 0.25;
const LOW = -128;
const BINS = Math.ceil(256 / BIN);

/** Median of each channel of the `indices` pixels of an interleaved 3-channel Lab buffer (to `BIN`). */
function channelMedians(pixels: Float32Array, indices: Int32Array): number[] {
  return medians(pixels, indices, [0, 0, 0], false);
}

/** Median absolute deviation of each channel from its `centres`, scaled to estimate a normal spread. */
function channelMads(pixels: Float32Array, indices: Int32Array, centres: number[]): number[] {
  return medians(pixels, indices, centres, true).map((mad) => 1.4826 * mad);
}

/**
 * Per channel, the median of the values less `shift` (of their size when `absolute`), from one pass
 * over the pixels into three histograms. The pass is written out per channel with the shifts in
 * locals: it runs four times per face on every video frame.
 */
function medians(pixels: Float32Array, indices: Int32Array, shift: number[], absolute: boolean): number[] {
  if (indices.length === 0) return [0, 0, 0];
  const counts = new Uint32Array(BINS * 3);
  const [s0, s1, s2] = shift as [number, number, number];
  const last = BINS - 1;
  for (let n = 0; n < indices.length; n++) {
    const i = indices[n]! * 3;
    let d0 = pixels[i]! - s0;
    let d1 = pixels[i + 1]! - s1;
    let d2 = pixels[i + 2]! - s2;
    if (absolute) {
      d0 = Math.abs(d0);
      d1 = Math.abs(d1);
      d2 = Math.abs(d2);
    }
    counts[binOf(d0, last)]!++;
    counts[BINS + binOf(d1, last)]!++;
    counts[2 * BINS + binOf(d2, last)]!++;
  }
  const wanted = 0.5 * indices.length;
  return [0, 1, 2].map((k) => {
    let seen = 0;
    for (let bin = 0; bin < BINS; bin++) {
      seen += counts[k * BINS + bin]!;
      if (seen >= wanted) return LOW + (bin + 0.5) * BIN;
    }
    return LOW + 256;
  });
}

/** The histogram bin of a value, the end bins holding everything beyond them. */
function binOf(value: number, last: number): number {
  const bin = Math.floor((value - LOW) / BIN);
  return bin < 0 ? 0 : bin > last ? last : bin;
}
