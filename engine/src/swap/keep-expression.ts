/**
 * An opening of the face that expression opens and closes: its two corners and its upper and
 * lower contours, paired across the opening (MediaPipe mesh indices, Human's `meshAnnotations`).
 */
interface Opening {
  corners: [number, number];
  upper: number[];
  lower: number[];
  /** How far from the opening the correction reaches, in widths of the opening: full up to `near`, none from `far`. */
  near: number;
  far: number;
}

const OPENINGS: Opening[] = [
  // The lips' inner contour; the lips themselves, the mouth's surroundings and the chin follow.
  { corners: [78, 308], upper: [191, 80, 81, 82, 13, 312, 311, 310, 415], lower: [95, 88, 178, 87, 14, 317, 402, 318, 324], near: 0.35, far: 0.9 },
  // The eyelids; the brows above follow a little.
  { corners: [33, 133], upper: [246, 161, 160, 159, 158, 157, 173], lower: [7, 163, 144, 145, 153, 154, 155], near: 0.25, far: 0.8 },
  { corners: [263, 362], upper: [466, 388, 387, 386, 385, 384, 398], lower: [249, 390, 373, 374, 380, 381, 382], near: 0.25, far: 0.8 },
];

/**
 * Gives the shaped mesh (the target's mesh moved to the source's proportions, `blendFaceShape`)
 * back the target's expression: how open its mouth and each eye are. The shape change moves the
 * inner points onto the source's, expression included: a laughing source gave a closed-mouthed
 * target an open mouth whose hole showed the target's own lips, and a video's face would keep the
 * source's one expression while the person talked. Each pair of contour points across an opening
 * takes the target's gap about the pair's shaped midpoint, so the source's mouth width, lip line
 * and eye spacing stay; the points around follow the side of the opening they are on, less with
 * distance. `weights` (0..1 per point, the shape change's ramp) keeps the outline where it was.
 */
export function keepExpression(shaped: Float32Array, target: Float32Array, weights: Float32Array): Float32Array {
  const out = Float32Array.from(shaped);
  for (const opening of OPENINGS) reopen(out, shaped, target, weights, opening);
  return out;
}

/** A pair of contour points across an opening: where it lies along the opening, its midline, and how far each of the two moves. */
interface Station {
  t: number;
  mid: number;
  upper: [number, number];
  lower: [number, number];
}

// The forehead's top and the chin (MediaPipe mesh indices): which way is up in the face.
const [FOREHEAD, CHIN] = [10, 152];

function reopen(out: Float32Array, shaped: Float32Array, target: Float32Array, weights: Float32Array, opening: Opening): void {
  const at = (p: number): [number, number] => [shaped[p * 2]!, shaped[p * 2 + 1]!];
  const [ax, ay] = at(opening.corners[0]);
  const [bx, by] = at(opening.corners[1]);
  const width = Math.hypot(bx - ax, by - ay);
  if (width < 1e-3) return;
  const [dx, dy] = [(bx - ax) / width, (by - ay) / width];
  // Along the opening, 0 at its first corner and 1 at the second; across it, signed distance in px.
  const along = ([x, y]: [number, number]) => ((x - ax) * dx + (y - ay) * dy) / width;
  const across = ([x, y]: [number, number]) => (y - ay) * dx - (x - ax) * dy;
  const upperSign = Math.sign(across(at(FOREHEAD)) - across(at(CHIN)));
  const moves = new Map<number, [number, number]>();
  const stations: Station[] = opening.upper.map((u, k) => {
    const l = opening.lower[k]!;
    const [ux, uy] = at(u);
    const [lx, ly] = at(l);
    const mid: [number, number] = [(ux + lx) / 2, (uy + ly) / 2];
    const gap = [target[l * 2]! - target[u * 2]!, target[l * 2 + 1]! - target[u * 2 + 1]!];
    const upper: [number, number] = [mid[0] - gap[0]! / 2 - ux, mid[1] - gap[1]! / 2 - uy];
    const lower: [number, number] = [mid[0] + gap[0]! / 2 - lx, mid[1] + gap[1]! / 2 - ly];
    moves.set(u, upper).set(l, lower);
    return { t: along(mid), mid: across(mid), upper, lower };
  });
  // The corners stay: stations of no movement at both ends.
  const still: Omit<Station, 't'> = { mid: 0, upper: [0, 0], lower: [0, 0] };
  const line = [{ t: 0, ...still }, ...stations.sort((p, q) => p.t - q.t), { t: 1, ...still }];
  for (let p = 0; p < shaped.length / 2; p++) {
    if (weights[p] === 0 || opening.corners.includes(p)) continue;
    const own = moves.get(p);
    const move = own ? { move: own, reach: 1 } : nearbyMove(at(p), line, along, across, upperSign, width, opening);
    if (!move) continue;
    const w = move.reach * weights[p]!;
    out[p * 2]! += w * move.move[0];
    out[p * 2 + 1]! += w * move.move[1];
  }
}

/**
 * How a point near an opening moves: as the contour on its side of the opening's midline does
 * there (interpolated between the stations on either side along it), and how much of that it
 * takes (1 up to `near` widths from the opening, 0 from `far`); null beyond `far`.
 */
function nearbyMove(
  point: [number, number],
  line: Station[],
  along: (p: [number, number]) => number,
  across: (p: [number, number]) => number,
  upperSign: number,
  width: number,
  opening: Opening,
): { move: [number, number]; reach: number } | null {
  const t = along(point);
  const clamped = Math.min(1, Math.max(0, t));
  let i = 0;
  while (i < line.length - 2 && line[i + 1]!.t < clamped) i++;
  const [s0, s1] = [line[i]!, line[i + 1]!];
  const f = s1.t > s0.t ? Math.min(1, Math.max(0, (clamped - s0.t) / (s1.t - s0.t))) : 0;
  const offset = across(point) - (s0.mid + f * (s1.mid - s0.mid));
  const distance = Math.hypot(offset / width, Math.max(0, -t, t - 1));
  if (distance >= opening.far) return null;
  const side = Math.sign(offset) === upperSign ? 'upper' : 'lower';
  const [m0, m1] = [s0[side], s1[side]];
  return {
    move: [m0[0] + f * (m1[0] - m0[0]), m0[1] + f * (m1[1] - m0[1])],
    reach: distance <= opening.near ? 1 : (opening.far - distance) / (opening.far - opening.near),
  };
}
