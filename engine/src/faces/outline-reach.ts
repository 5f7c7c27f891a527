/**
 * Rows of Human's UV map (0 at the top of the forehead, 1 at the chin) over which the swap's reach
 * beyond the outline fades from full to none: the forehead and temples reach out, the jaw does
 * not. Beyond a jaw lie the neck and the background, and a face reaching over them drew an oval
 * past the person's own jaw.
 */
const FULL_TO = 0.6;
const NONE_FROM = 0.8;

/**
 * Per mesh point, how far the swap reaches beyond it (see `extendOutline`), 0..1: on the outline
 * (`rings` 0) by its row in the UV map, 0 on every inner point.
 */
export function outlineReach(uv: readonly (readonly [number, number])[], rings: Uint8Array): Float32Array {
  return Float32Array.from(rings, (ring, i) => {
    if (ring !== 0) return 0;
    const v = uv[i]![1];
    return v <= FULL_TO ? 1 : v >= NONE_FROM ? 0 : (NONE_FROM - v) / (NONE_FROM - FULL_TO);
  });
}
