/**
 * Parts of the face that are not skin, as rectangles of Human's canonical UV map of the mesh
 * (u across from the face's right ear to its left, v down from forehead to chin): eyes with their
 * brows, the lips, the nostrils. Measured on the map: brows start at v 0.26, lower lids end at
 * v 0.40, lip corners lie at u 0.38 / 0.62, lips span v 0.65-0.74, nostrils sit at v 0.59.
 */
const NOT_SKIN: readonly { u: [number, number]; v: [number, number] }[] = [
  { u: [0.21, 0.46], v: [0.23, 0.43] },
  { u: [0.54, 0.79], v: [0.23, 0.43] },
  { u: [0.36, 0.64], v: [0.63, 0.76] },
  { u: [0.4, 0.6], v: [0.565, 0.61] },
];

const inRegion = ([u, v]: readonly [number, number], r: (typeof NOT_SKIN)[number]) => u >= r.u[0] && u <= r.u[1] && v >= r.v[0] && v <= r.v[1];
const isSkin = (point: readonly [number, number]) => !NOT_SKIN.some((r) => inRegion(point, r));

/** Per mesh point, 1 if it lies on an eye or its brow (the first two of `NOT_SKIN`). */
export function eyePoints(uv: readonly (readonly [number, number])[]): Uint8Array {
  return Uint8Array.from(uv, (point) => (NOT_SKIN.slice(0, 2).some((r) => inRegion(point, r)) ? 1 : 0));
}

/**
 * Per triangle of the mesh, 1 if a corner lies on an eye, a brow, the lips or a nostril: the
 * features, which are whatever colour the person's are and so are never judged by skin colour.
 */
export function featureTriangles(triangles: Uint16Array, uv: readonly (readonly [number, number])[]): Uint8Array {
  const features = new Uint8Array(triangles.length / 3);
  for (let t = 0; t < triangles.length; t += 3) {
    features[t / 3] = [triangles[t]!, triangles[t + 1]!, triangles[t + 2]!].some((i) => !isSkin(uv[i]!)) ? 1 : 0;
  }
  return features;
}

/**
 * Per triangle of the mesh, 1 if all its corners are on skin (cheeks, forehead, nose, chin),
 * 0 if it touches an eye, a brow, the lips, a nostril or the face outline (where the mesh's edge
 * often takes in hair or background). Tone statistics are taken from these triangles only: eyes,
 * brows and lips differ from person to person in ways that are not lighting.
 */
export function skinTriangles(triangles: Uint16Array, uv: readonly (readonly [number, number])[], rings: Uint8Array): Uint8Array {
  const skin = new Uint8Array(triangles.length / 3);
  for (let t = 0; t < triangles.length; t += 3) {
    const corners = [triangles[t]!, triangles[t + 1]!, triangles[t + 2]!];
    skin[t / 3] = corners.every((i) => rings[i]! > 0 && isSkin(uv[i]!)) ? 1 : 0;
  }
  return skin;
}

/**
 * Per triangle, 1 if it is a feature (`featureTriangles`) with a corner on the face outline or the
 * ring inside it. On a face turned away or framed by hair, the brows' outer ends run to the
 * outline, and hair falling over them there is hair, not brow.
 */
export function outlineFeatureTriangles(triangles: Uint16Array, features: Uint8Array, rings: Uint8Array): Uint8Array {
  const out = new Uint8Array(features.length);
  for (let t = 0; t < features.length; t++) {
    out[t] = features[t] && [triangles[t * 3]!, triangles[t * 3 + 1]!, triangles[t * 3 + 2]!].some((i) => rings[i]! <= 1) ? 1 : 0;
  }
  return out;
}

/** Below this v the eyes' rectangles hold the brows and the skin around them; the upper lids start at about v 0.33. */
const BROW_ZONE_END = 0.33;

/**
 * Per triangle, 1 if it is a feature (`featureTriangles`) above the eyes: the brows and the skin
 * around them up to the forehead's edge and the temples, where hair falls across.
 */
export function browTriangles(triangles: Uint16Array, features: Uint8Array, uv: readonly (readonly [number, number])[]): Uint8Array {
  const out = new Uint8Array(features.length);
  for (let t = 0; t < features.length; t++) {
    out[t] = features[t] && [triangles[t * 3]!, triangles[t * 3 + 1]!, triangles[t * 3 + 2]!].every((i) => uv[i]![1] < BROW_ZONE_END) ? 1 : 0;
  }
  return out;
}

/** The eyes' corners lie at about v 0.38 (upper lids 0.355, lower lids 0.40, brows 0.26-0.30). */
const EYE_LINE = 0.38;

/**
 * Per triangle, 1 if every corner lies at or below the line through the eyes' corners: where a
 * glasses frame's rims reach and a brow never does.
 */
export function belowEyeLineTriangles(triangles: Uint16Array, uv: readonly (readonly [number, number])[]): Uint8Array {
  return trianglesWhere(triangles, (corners) => corners.every((i) => uv[i]![1] >= EYE_LINE));
}

/**
 * The eyes' contours and the lips' outer and inner contours (MediaPipe mesh indices, Human's
 * `meshAnnotations`): the openings whose own thin dark lines (lashes, eyeliner, the line between
 * the lips) run up to the face's outline and the hair beside it.
 */
const OPENING_CONTOURS = new Set([
  33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246,
  263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466,
  61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 409, 270, 269, 267, 0, 37, 39, 40, 185,
  78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308, 415, 310, 311, 312, 13, 82, 81, 80, 191,
]);

/**
 * The brows' upper and lower contours (MediaPipe mesh indices): the triangles with every corner on
 * them are the brows themselves, which on a face with thin brows are lines as thin as a frame's.
 */
const BROW_CONTOURS = new Set([70, 63, 105, 66, 107, 46, 53, 52, 65, 55, 300, 293, 334, 296, 336, 276, 283, 282, 295, 285]);

/** Per triangle, 1 if a corner lies on an eye's contour or the lips' (see `OPENING_CONTOURS`). */
export function openingTriangles(triangles: Uint16Array): Uint8Array {
  return trianglesWhere(triangles, (corners) => corners.some((i) => OPENING_CONTOURS.has(i)));
}

/** Per triangle, 1 if every corner lies on a brow's contour (see `BROW_CONTOURS`): the brows themselves. */
export function browLineTriangles(triangles: Uint16Array): Uint8Array {
  return trianglesWhere(triangles, (corners) => corners.every((i) => BROW_CONTOURS.has(i)));
}

function trianglesWhere(triangles: Uint16Array, test: (corners: number[]) => boolean): Uint8Array {
  const out = new Uint8Array(triangles.length / 3);
  for (let t = 0; t < out.length; t++) out[t] = test([triangles[t * 3]!, triangles[t * 3 + 1]!, triangles[t * 3 + 2]!]) ? 1 : 0;
  return out;
}
