/** Strength of the fine-detail unsharp mask (radius about 1 px). */
const SHARPEN_AMOUNT = 0.6;
/** Strength of the local-contrast lift (radius about 1/16 of the face). */
const CONTRAST_AMOUNT = 0.2;

/**
 * The optional face enhancer: a classical sharpening pass over the swapped face only. An unsharp
 * mask restores the fine detail that the warp's resampling and the blend soften, and a wide,
 * mild unsharp mask lifts local contrast. Each pixel changes in proportion to its mask opacity,
 * so nothing outside the face changes. It does not restore a face (no learned model): it cannot
 * add detail a small or blurry source never had, and it sharpens noise and JPEG blocks too.
 */
export function enhanceFace(rgb: Float32Array, alpha: Float32Array, width: number, height: number): void {
  const fine = boxBlur(rgb, width, height, 1);
  const wide = boxBlur(rgb, width, height, Math.max(2, Math.round(Math.min(width, height) / 16)));
  for (let p = 0; p < alpha.length; p++) {
    const a = alpha[p]!;
    if (a === 0) continue;
    for (let k = 0; k < 3; k++) {
      const i = p * 3 + k;
      const v = rgb[i]!;
      rgb[i] = v + a * (SHARPEN_AMOUNT * (v - fine[i]!) + CONTRAST_AMOUNT * (v - wide[i]!));
    }
  }
}

/** Two passes of a separable box blur of the given radius (close to a Gaussian), edges clamped. */
function boxBlur(rgb: Float32Array, width: number, height: number, radius: number): Float32Array {
  let out: Float32Array = Float32Array.from(rgb);
  for (let pass = 0; pass < 2; pass++) {
    out = blurLines(out, width, height, radius, 3, width * 3);
    out = blurLines(out, height, width, radius, width * 3, 3);
  }
  return out;
}

/** Blurs `lines` lines of `length` pixels; `step` moves along a line, `stride` to the next one. */
function blurLines(input: Float32Array, length: number, lines: number, radius: number, step: number, stride: number): Float32Array {
  const out = new Float32Array(input.length);
  const span = 2 * radius + 1;
  for (let line = 0; line < lines; line++) {
    const base = line * stride;
    for (let k = 0; k < 3; k++) {
      let sum = 0;
      for (let i = -radius; i <= radius; i++) sum += input[base + Math.min(Math.max(i, 0), length - 1) * step + k]!;
      for (let i = 0; i < length; i++) {
        out[base + i * step + k] = sum / span;
        const leaving = Math.max(i - radius, 0);
        const entering = Math.min(i + radius + 1, length - 1);
        sum += input[base + entering * step + k]! - input[base + leaving * step + k]!;
      }
    }
  }
  return out;
}
