import { exportedFunctions, exportedMemory, HeapPlan, wasmKernel, type KernelInstance } from '../wasm/wasm-kernel';
import { maskedBlur } from './masked-blur';

interface EdgeBlurKernel extends KernelInstance {
  gradients(rgb: number, features: number, light: number, gradients: number, histogram: number, width: number, height: number, edge: number, rowStep: number, least: number, steps: number): number;
  ranges(light: number, gradients: number, blurs: number, width: number, height: number, edge: number, rowStep: number, threshold: number, contrast: number, norm: number): number;
}

/** About 0.8 kB. The kept instance may grow to 16 MB of memory: the demo photos' largest face box (262x289) needs 1.8 MB. */
const edgeKernelFor = wasmKernel<EdgeBlurKernel>('./edge-blur.wasm', 16 * 2 ** 20, (exports) => ({
  memory: exportedMemory(exports, 'edge-blur.wasm'),
  ...exportedFunctions<EdgeBlurKernel>(exports, 'edge-blur.wasm', ['gradients', 'ranges']),
}));

/** Half the side of the window whose lightness range is an edge's contrast, px. */
const EDGE_WINDOW = 3;
/** Least lightness range (0..255) around a pixel for it to count as lying on an edge. */
const MIN_EDGE_CONTRAST = 30;
/** Least lightness gradient (levels per pixel) for a pixel to count as lying on an edge. */
const MIN_GRADIENT = 2;
/** Steps of a quarter level in the gradients' histogram (gradients of 128 levels and more share the last). */
const GRADIENT_STEPS = 512;
/** Share of the feature pixels, the steepest, whose blur is measured. */
const STEEPEST_SHARE = 0.1;
/**
 * How much softer (sigma², px²) the target may be than the source before the source is softened:
 * the demo photos' sharp faces measure 1.3-1.7 px, so pairs of them differ by up to about 1.4 px².
 */
const BLUR_ALLOWANCE = 1;
/** Rows read for the measure: every other one, a sample as good as all for a median (and half the time on every video frame). */
const ROW_STEP = 2;
/** Fewest edge pixels a measure needs; below it the face is left as drawn. */
const MIN_EDGE_PIXELS = 20;

/**
 * How blurred the edges of a face's features are, as the sigma (px) of a Gaussian that would blur
 * a sharp edge that much: over the steepest tenth of the feature pixels, those with a range of
 * lightness around them (an edge), the median of range / (gradient * sqrt(2 pi)) (a step of height
 * R blurred by sigma has the gradient R / (sigma sqrt(2 pi)) at its middle). The eyes, brows and
 * lips have such edges in every face, so a soft photo tells from a sharp one whatever the skin's
 * own texture: the demo photos' faces measure 1.3-2.0 px (photos 4 and 5, visibly soft, 1.8-2.0).
 * NaN when too few edges. The loops over the pixels run in WebAssembly (edge-blur.wat).
 */
export function edgeBlur(rgb: Float32Array, features: Uint8Array, width: number, height: number): number {
  const pixels = width * height;
  const plan = new HeapPlan();
  const at = {
    rgb: plan.take(pixels * 12),
    features: plan.take(pixels),
    light: plan.take(pixels * 4),
    gradients: plan.take(pixels * 4),
    histogram: plan.take(GRADIENT_STEPS * 4),
    // At most one blur per pixel of the rows read.
    blurs: plan.take(Math.ceil(height / ROW_STEP) * width * 8),
  };
  const kernel = edgeKernelFor(plan.size);
  new Float32Array(kernel.memory.buffer, at.rgb, pixels * 3).set(rgb);
  new Uint8Array(kernel.memory.buffer, at.features, pixels).set(features);
  const count = kernel.gradients(at.rgb, at.features, at.light, at.gradients, at.histogram, width, height, EDGE_WINDOW, ROW_STEP, MIN_GRADIENT, GRADIENT_STEPS);
  if (count < MIN_EDGE_PIXELS) return NaN;
  // The gradients' histogram, in steps of a quarter level, gives the steepest share's threshold.
  const histogram = new Int32Array(kernel.memory.buffer, at.histogram, GRADIENT_STEPS);
  const steepest = Math.max(MIN_EDGE_PIXELS, Math.round(count * STEEPEST_SHARE));
  let step = GRADIENT_STEPS - 1;
  for (let above = histogram[step]!; above < steepest; above += histogram[step]!) step--;
  // Only the steepest pixels' ranges are read: 49 pixels each. Unread and gentle pixels hold 0,
  // below any threshold (at least `MIN_GRADIENT`).
  const measured = kernel.ranges(at.light, at.gradients, at.blurs, width, height, EDGE_WINDOW, ROW_STEP, step / 4, MIN_EDGE_CONTRAST, Math.sqrt(2 * Math.PI));
  if (measured < MIN_EDGE_PIXELS / 2) return NaN;
  const blurs = new Float64Array(kernel.memory.buffer, at.blurs, measured).sort();
  return blurs[measured >> 1]!;
}

/**
 * Softens the warped source (`rgb`, in place on the `drawn` pixels) to the target's blur when the
 * target is the softer, so the new face is not sharper than the photo or frame it is put in (a soft
 * or out-of-focus photo, a video frame). `drawn` holds the source's own face only: blurred in, the
 * hair or background it has at its outline left a dark line along the new face's jaw. The added
 * blur is what takes the source's edges to the target's (sigma² adds up) less `BLUR_ALLOWANCE`.
 * Returns the radius used times the share mixed in (0: left as drawn).
 */
export function matchSharpness(rgb: Float32Array, drawn: Uint8Array, target: Float32Array, features: Uint8Array, width: number, height: number): number {
  const [own, wanted] = [edgeBlur(rgb, features, width, height), edgeBlur(target, features, width, height)];
  const variance = wanted * wanted - own * own - BLUR_ALLOWANCE;
  if (!(variance > 0)) return 0;
  // Three box passes of radius r blur by sigma² = r (r + 1): the nearest radius (at least 1),
  // mixed in by the share of its variance that is wanted when that is less.
  const radius = Math.max(1, Math.round((Math.sqrt(1 + 4 * variance) - 1) / 2));
  const share = Math.min(1, variance / (radius * (radius + 1)));
  const { mean } = maskedBlur(rgb, drawn, width, height, radius);
  for (let p = 0; p < drawn.length; p++) {
    if (drawn[p]) for (let k = 0; k < 3; k++) rgb[p * 3 + k]! += share * (mean[p * 3 + k]! - rgb[p * 3 + k]!);
  }
  return radius * share;
}
