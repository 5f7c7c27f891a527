// MediaPipe mesh points: the forehead's top and the chin on the face's centre line, the nose's tip.
const [FOREHEAD, CHIN, NOSE_TIP] = [10, 152, 1];
/** Outline points within this share of the face's height of the nose tip's level are its cheeks'. */
const LEVEL = 0.12;
/**
 * How far the nose tip stands beyond the face's outline at its level, as a share of the face's
 * width there, from which the far side counts as hidden (0) and wholly hidden (1). On the 22 demo
 * faces of the quality report the tip lies inside the outline (5 % to 47 % of the width from the
 * nearer cheek) but on three: photo 4's face 0 (2 % beyond), photo 5's face 1 (14 %) and photo
 * 2's face 0 (32 %), the one seen in profile, whose mesh folds its far eye onto the wall. On the
 * region a swap replaces (the outline moved out at the forehead and temples: `extendOutline`),
 * only photo 2's face 0 reaches 10 %.
 */
const [FROM, FULLY] = [0.1, 0.3];

/**
 * How much of a face's far side is hidden behind its nose, 0..1: on a face turned far enough, the
 * nose tip stands out beyond the far cheek's outline and the mesh folds the far side behind it.
 * `rings` numbers each point's ring of mesh edges in from the outline (0 on it).
 */
export function hiddenFarSide(mesh: Float32Array, rings: Uint8Array): number {
  return Math.min(1, Math.max(0, (noseBeyondOutline(mesh, rings) - FROM) / (FULLY - FROM)));
}

/**
 * On the mesh as detected (not moved out: `extendOutline` widens the far side, and on photo 2's
 * face 0 at 960 px `hiddenFarSide` of the moved mesh is 0.01), how far the nose tip stands beyond
 * the outline from which a face counts as seen in profile (0) and wholly so (1). The demo faces'
 * tips lie inside the outline at every size from 640 to 1920 px but on two: photo 5's face 1,
 * turned three-quarters with both eyes in view (0.11-0.14), and photo 2's face 0 in profile
 * (0.25-0.35).
 */
const [PROFILE_FROM, PROFILE_FULLY] = [0.16, 0.24];

/** How far a face (its mesh as detected) is seen in profile, showing its near half only, 0..1. */
export function seenInProfile(mesh: Float32Array, rings: Uint8Array): number {
  return Math.min(1, Math.max(0, (noseBeyondOutline(mesh, rings) - PROFILE_FROM) / (PROFILE_FULLY - PROFILE_FROM)));
}

/**
 * How far the nose tip stands beyond the face's outline at its level, as a share of the face's
 * width there (negative while it lies inside, towards -0.5 on a frontal face).
 */
export function noseBeyondOutline(mesh: Float32Array, rings: Uint8Array): number {
  const [fx, fy] = [mesh[FOREHEAD * 2]!, mesh[FOREHEAD * 2 + 1]!];
  const length = Math.hypot(mesh[CHIN * 2]! - fx, mesh[CHIN * 2 + 1]! - fy);
  if (length === 0) return -Infinity;
  const [downX, downY] = [(mesh[CHIN * 2]! - fx) / length, (mesh[CHIN * 2 + 1]! - fy) / length];
  const down = (p: number) => (mesh[p * 2]! - fx) * downX + (mesh[p * 2 + 1]! - fy) * downY;
  const across = (p: number) => (mesh[p * 2 + 1]! - fy) * downX - (mesh[p * 2]! - fx) * downY;
  const level = down(NOSE_TIP);
  // The outline's extent across the face at the nose's level, one cheek to the other.
  let [from, to] = [Infinity, -Infinity];
  for (let p = 0; p < rings.length; p++) {
    if (rings[p] !== 0 || Math.abs(down(p) - level) > LEVEL * length) continue;
    [from, to] = [Math.min(from, across(p)), Math.max(to, across(p))];
  }
  if (!(to > from)) return -Infinity;
  const tip = across(NOSE_TIP);
  return -Math.min(tip - from, to - tip) / (to - from);
}
