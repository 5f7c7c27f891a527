import { maskedBlur } from './masked-blur';

/** Radius of the skin patch laid over what hides the source's face, as a share of the box's short side. */
const FILL_RADIUS = 0.06;
/** Share of skin around a pixel from which a patch over it is fully trusted. */
const FULL_FILL_WEIGHT = 0.2;
/**
 * How steeply the patch takes over from a pixel partly not the source's skin: fully where a third
 * of it or less is skin. Taking over in proportion left half of a hair's soft edge, drawn as thin dark
 * lines down the cheeks of every target of source 6-1 (photo 6's face 1, hair along one cheek).
 */
const FILL_TAKEOVER = 1.5;

/**
 * Paints over what the source shows across its face (hair, a hand, the background inside the
 * mesh's outline) with the colour of the source's skin around it: a low-pass of the confident
 * pixels only, so the patch is smooth skin that the tone step then lights like the target.
 * Returns, per pixel, how far the result is the source's face: its confidence, raised by how far
 * a patch of nearby skin stood in.
 */
export function fillNotSkin(rgb: Float32Array, confidence: Float32Array, covered: Uint8Array, width: number, height: number): Float32Array {
  const sure = new Uint8Array(confidence.length);
  const unsure: number[] = [];
  for (let p = 0; p < sure.length; p++) {
    sure[p] = confidence[p]! >= 0.5 ? 1 : 0;
    if (covered[p] && confidence[p]! < 1) unsure.push(p);
  }
  if (unsure.length === 0) return confidence;
  const at = Int32Array.from(unsure);
  const patch = maskedBlur(rgb, sure, width, height, Math.max(2, Math.round(FILL_RADIUS * Math.min(width, height))), at);
  const out = Float32Array.from(confidence);
  for (let n = 0; n < at.length; n++) {
    const p = at[n]!;
    const c = confidence[p]!;
    const trust = Math.min(1, patch.weight[n]! / FULL_FILL_WEIGHT);
    const w = Math.min(1, FILL_TAKEOVER * (1 - c)) * trust;
    for (let k = 0; k < 3; k++) rgb[p * 3 + k]! += w * (patch.mean[n * 3 + k]! - rgb[p * 3 + k]!);
    out[p] = Math.min(1, c + w);
  }
  return out;
}
