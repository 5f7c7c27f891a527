/**
 * Low-pass of a 3-channel float image taken from the `mask` pixels only (normalised convolution):
 * each output pixel is the weighted mean of the masked pixels around it, so pixels left out of the
 * mask (eyes, lips, hair) neither darken nor tint it, and pixels outside the mask get the mean of
 * their masked neighbourhood. Three passes of a separable box blur of `radius` approximate a
 * Gaussian of sigma ~ `radius` (on a coarser grid for a wide radius, see `lowPassInPlace`). Returns the blurred channels and the blurred mask (the share of
 * masked pixels nearby, 0 where there were none).
 */
export function maskedBlur(values: Float32Array, mask: Uint8Array, width: number, height: number, radius: number): { mean: Float32Array; weight: Float32Array } {
  const stack = new Float32Array(width * height * 4);
  for (let p = 0; p < mask.length; p++) {
    if (!mask[p]) continue;
    stack[p * 4] = values[p * 3]!;
    stack[p * 4 + 1] = values[p * 3 + 1]!;
    stack[p * 4 + 2] = values[p * 3 + 2]!;
    stack[p * 4 + 3] = 1;
  }
  lowPassInPlace(stack, 4, width, height, radius);
  const mean = new Float32Array(width * height * 3);
  const weight = new Float32Array(width * height);
  for (let p = 0; p < weight.length; p++) {
    const w = stack[p * 4 + 3]!;
    weight[p] = w;
    if (w < 1e-6) continue;
    mean[p * 3] = stack[p * 4]! / w;
    mean[p * 3 + 1] = stack[p * 4 + 1]! / w;
    mean[p * 3 + 2] = stack[p * 4 + 2]! / w;
  }
  return { mean, weight };
}

/**
 * A one-channel map low-passed like `maskedBlur`: each output is the mean of the pixels around it
 * that lie inside the map and in `mask` (every pixel when no mask is given).
 */
export function blurMap(map: Float32Array, width: number, height: number, radius: number, mask?: Uint8Array): Float32Array {
  const stack = new Float32Array(map.length * 2);
  for (let p = 0; p < map.length; p++) {
    const w = mask ? mask[p]! : 1;
    stack[p * 2] = w * map[p]!;
    stack[p * 2 + 1] = w;
  }
  gaussianInPlace(stack, 2, width, height, radius);
  const out = new Float32Array(map.length);
  for (let p = 0; p < map.length; p++) out[p] = stack[p * 2 + 1]! > 1e-6 ? stack[p * 2]! / stack[p * 2 + 1]! : 0;
  return out;
}

/** From this box radius on, a low-pass is taken on a grid of cells a quarter of the radius across. */
const COARSE_FROM_RADIUS = 12;

/**
 * `gaussianInPlace`, for a wide radius on a coarser grid: the image is averaged into cells a
 * quarter of the radius across, blurred there, and interpolated back. A low-pass that wide has
 * nothing finer than a cell to lose, and the shading low-pass (a fifth of the face) was most of
 * the colour step's time at full resolution.
 */
function lowPassInPlace(stack: Float32Array, channels: number, width: number, height: number, radius: number): void {
  if (radius < COARSE_FROM_RADIUS) {
    gaussianInPlace(stack, channels, width, height, radius);
    return;
  }
  const factor = Math.floor(radius / 4);
  const cw = Math.ceil(width / factor);
  const ch = Math.ceil(height / factor);
  const cells = new Float32Array(cw * ch * channels);
  const counts = new Float32Array(cw * ch);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / factor) * cw;
    for (let x = 0; x < width; x++) {
      const cell = row + Math.floor(x / factor);
      counts[cell]!++;
      for (let k = 0; k < channels; k++) cells[cell * channels + k]! += stack[(y * width + x) * channels + k]!;
    }
  }
  for (let cell = 0; cell < counts.length; cell++) for (let k = 0; k < channels; k++) cells[cell * channels + k]! /= counts[cell]!;
  gaussianInPlace(cells, channels, cw, ch, Math.round(radius / factor));
  // Bilinear interpolation from the cells' centres.
  for (let y = 0; y < height; y++) {
    const cy = Math.min(Math.max((y + 0.5) / factor - 0.5, 0), ch - 1);
    const y0 = Math.floor(cy);
    const y1 = Math.min(y0 + 1, ch - 1);
    const fy = cy - y0;
    for (let x = 0; x < width; x++) {
      const cx = Math.min(Math.max((x + 0.5) / factor - 0.5, 0), cw - 1);
      const x0 = Math.floor(cx);
      const x1 = Math.min(x0 + 1, cw - 1);
      const fx = cx - x0;
      const [a, b, c, d] = [(y0 * cw + x0) * channels, (y0 * cw + x1) * channels, (y1 * cw + x0) * channels, (y1 * cw + x1) * channels];
      for (let k = 0; k < channels; k++) {
        const top = cells[a + k]! + fx * (cells[b + k]! - cells[a + k]!);
        const bottom = cells[c + k]! + fx * (cells[d + k]! - cells[c + k]!);
        stack[(y * width + x) * channels + k] = top + fy * (bottom - top);
      }
    }
  }
}

/**
 * Three passes of a separable box blur of `radius` over an interleaved image of `channels`
 * channels, in place (approximately a Gaussian of sigma ~ `radius`). Two buffers are written in
 * turn: a swap runs several of these per video frame.
 */
function gaussianInPlace(stack: Float32Array, channels: number, width: number, height: number, radius: number): void {
  const spare = new Float32Array(stack.length);
  for (let pass = 0; pass < 3; pass++) {
    blurLines(stack, spare, channels, width, height, radius, channels, width * channels);
    blurLines(spare, stack, channels, height, width, radius, width * channels, channels);
  }
}

/** Box-blurs `lines` lines of `length` pixels of `channels` channels into `out`, zero beyond the ends; `step` moves along a line, `stride` to the next. */
function blurLines(input: Float32Array, out: Float32Array, channels: number, length: number, lines: number, radius: number, step: number, stride: number): void {
  const span = 2 * radius + 1;
  for (let line = 0; line < lines; line++) {
    const base = line * stride;
    for (let k = 0; k < channels; k++) {
      let sum = 0;
      for (let i = 0; i <= Math.min(radius, length - 1); i++) sum += input[base + i * step + k]!;
      for (let i = 0; i < length; i++) {
        out[base + i * step + k] = sum / span;
        if (i + radius + 1 < length) sum += input[base + (i + radius + 1) * step + k]!;
        if (i - radius >= 0) sum -= input[base + (i - radius) * step + k]!;
      }
    }
  }
}
