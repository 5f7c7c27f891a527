import { indicesOf } from './mask-indices';

/** V-cycles run on the finest grid after the full-multigrid start. */
const CYCLES = 2;
/**
 * Gauss-Seidel sweeps before and after each coarse-grid correction, on the finest grid and on the
 * coarse ones. The coarse grids' extra sweep costs little (all of them together hold a third as
 * many points as the finest) and nearly halved the worst error on the smallest faces.
 */
const FINE_SWEEPS = { before: 1, after: 1 };
const COARSE_SWEEPS = { before: 2, after: 1 };
/** Grids no larger than this across (padding included) are not coarsened further; they are solved by sweeping. */
const COARSEST_SIZE = 6;
const COARSEST_SWEEPS = 30;

/** The 3x3 stencil's positions as (dx, dy), row by row; position 4 is the centre. */
const STENCIL_DX = [-1, 0, 1, -1, 0, 1, -1, 0, 1];
const STENCIL_DY = [-1, -1, -1, 0, 0, 0, 1, 1, 1];

/**
 * Solves, for three interleaved channels, 4 u(p) - (the sum of u over p's 4-neighbours) = f(p) at
 * every pixel p of `region`, with u = 0 outside it; returns u (0 outside the region).
 *
 * Full multigrid: the right-hand side is carried down to ever coarser grids, the coarsest is
 * solved, and each finer grid starts from the interpolated coarser answer and takes one V-cycle,
 * the finest `CYCLES`. Coarse points sit on every second fine point; interpolation is bilinear
 * within the region and restriction its transpose, and each coarse grid's operator is the
 * Galerkin product of the finer one (restriction x operator x interpolation). That product is what
 * carries the region's irregular edge, its holes and its Dirichlet border down exactly: a coarse
 * grid re-discretised on a coarsened mask puts the border in the wrong place, and its cycles
 * converge slowly or not at all. Smoothing is red-black Gauss-Seidel on the finest grid and
 * lexicographic on the coarse ones (their 9-point stencils have no two-colouring).
 *
 * `region` must not touch the grid's edge.
 */
export function solveOnRegion(f: Float32Array, region: Uint8Array, width: number, height: number): Float32Array {
  const levels = hierarchy(f, region, width, height);
  for (let l = 0; l + 1 < levels.length; l++) restrict(levels[l]!, levels[l]!.f, levels[l + 1]!, ALL_GROUPS);
  relax(levels[levels.length - 1]!, COARSEST_SWEEPS);
  for (let l = levels.length - 2; l >= 0; l--) {
    interpolate(levels[l]!, levels[l + 1]!, false);
    for (let cycle = 0; cycle < (l === 0 ? CYCLES : 1); cycle++) vCycle(levels, l);
  }
  return levels[0]!.u;
}

interface Level {
  width: number;
  height: number;
  /** 1 on the grid points that are unknowns; `cells` lists them in order. */
  mask: Uint8Array;
  cells: Int32Array;
  /**
   * The unknowns in the order they are relaxed, in two passes: on the finest grid the red points
   * (x + y even), then the black; on a coarse grid those with the interior stencil, then the rest.
   */
  passes: [Int32Array, Int32Array];
  /** The operator's stencil away from the region's edge, and 1 on the unknowns that have it. */
  interior: Float32Array;
  standard: Uint8Array;
  /** 9 coefficients for each other unknown; null on the finest grid, where every unknown has the 5-point Laplacian (u being 0 outside the region). */
  stencil: Float32Array | null;
  u: Float32Array;
  f: Float32Array;
  r: Float32Array;
  /** The unknowns in four groups by where they sit among the next coarser level's points; null on the coarsest. */
  places: Place[] | null;
}

/**
 * Fine unknowns that sit alike among the coarse points, by the parity of (x, y): on a coarse
 * point, between two across, between two down, or amid four. `corners` holds, for each, the
 * coarse point up and to the left; `across` and `down` are the steps in the channel arrays (three
 * per point) from it to the other coarse points they read, 0 when there are none that way;
 * `weight` is what each of those points gives them (1, 1/2 or 1/4).
 */
interface Place {
  cells: Int32Array;
  corners: Int32Array;
  across: number;
  down: number;
  weight: number;
}

const LAPLACIAN = Float32Array.from([0, -1, 0, -1, 4, -1, 0, -1, 0]);
/** The groups of `Place`s: all of them, and those whose points are red (x + y even). */
const ALL_GROUPS = [0, 1, 2, 3];
/**
 * After a red-black sweep the black points' equations hold exactly (each was just solved from red
 * neighbours that have not moved since), so on the finest grid the residual is worked out, and
 * restricted, on the red points only.
 */
const RED_GROUPS = [0, 3];

function hierarchy(f: Float32Array, region: Uint8Array, width: number, height: number): Level[] {
  const levels = [finest(f, region, width, height)];
  for (let last = levels[0]!; Math.max(last.width, last.height) > COARSEST_SIZE && last.cells.length > 0; last = levels[levels.length - 1]!) {
    levels.push(coarsen(last));
  }
  return levels;
}

function finest(f: Float32Array, region: Uint8Array, width: number, height: number): Level {
  const cells = indicesOf(region);
  const standard = new Uint8Array(region.length);
  const red = new Int32Array(cells.length);
  const black = new Int32Array(cells.length);
  let reds = 0;
  let blacks = 0;
  for (let n = 0, y = 0, rowStart = 0; n < cells.length; n++) {
    const p = cells[n]!;
    while (p >= rowStart + width) {
      y++;
      rowStart += width;
    }
    standard[p] = region[p - 1]! & region[p + 1]! & region[p - width]! & region[p + width]!;
    if (((p - rowStart + y) & 1) === 0) red[reds++] = p;
    else black[blacks++] = p;
  }
  const size = width * height * 3;
  return {
    width,
    height,
    mask: region,
    cells,
    passes: [red.subarray(0, reds), black.subarray(0, blacks)],
    interior: LAPLACIAN,
    standard,
    stencil: null,
    u: new Float32Array(size),
    f,
    r: new Float32Array(size),
    places: null,
  };
}

/**
 * The next coarser level: coarse point (X, Y) lies on fine point (2X - 2, 2Y - 2), so the coarse
 * grid keeps a border of zeros one point wide; its unknowns are the points some fine unknown
 * reads. Where every fine point around a coarse one has the interior stencil, so has the coarse
 * point; the product is worked out only near the region's edge.
 */
function coarsen(fine: Level): Level {
  const { width, height } = fine;
  const cw = ((width - 1) >> 1) + 3;
  const ch = ((height - 1) >> 1) + 3;
  const places = placesOf(fine.cells, width, cw);
  fine.places = places;
  const mask = new Uint8Array(cw * ch);
  for (const { corners, across, down } of places) {
    const [right, below] = [across / 3, down / 3];
    for (let n = 0; n < corners.length; n++) {
      const c = corners[n]!;
      mask[c] = mask[c + right] = mask[c + below] = mask[c + right + below] = 1;
    }
  }
  const cells = indicesOf(mask);
  const standard = new Uint8Array(cw * ch);
  const stencil = new Float32Array(cw * ch * 9);
  let inner = 0;
  for (let n = 0; n < cells.length; n++) {
    const I = cells[n]!;
    const X = I % cw;
    const x = 2 * X - 2;
    const y = 2 * ((I - X) / cw) - 2;
    if (aroundStandard(fine.standard, y * width + x, width)) {
      standard[I] = 1;
      inner++;
    } else {
      galerkinRow(fine, x, y, stencil.subarray(I * 9, I * 9 + 9));
    }
  }
  const passes: [Int32Array, Int32Array] = [new Int32Array(inner), new Int32Array(cells.length - inner)];
  for (let n = 0, a = 0, b = 0; n < cells.length; n++) {
    const I = cells[n]!;
    if (standard[I]) passes[0][a++] = I;
    else passes[1][b++] = I;
  }
  const size = cw * ch * 3;
  return { width: cw, height: ch, mask, cells, passes, interior: galerkin(fine.interior), standard, stencil, u: new Float32Array(size), f: new Float32Array(size), r: new Float32Array(size), places: null };
}

function placesOf(cells: Int32Array, width: number, cw: number): Place[] {
  const group = new Uint8Array(cells.length);
  const corners = new Int32Array(cells.length);
  const counts = new Int32Array(4);
  // The cells are in order, so the row only ever moves down.
  for (let n = 0, y = 0, rowStart = 0; n < cells.length; n++) {
    const p = cells[n]!;
    while (p >= rowStart + width) {
      y++;
      rowStart += width;
    }
    const x = p - rowStart;
    const g = (x & 1) | ((y & 1) << 1);
    group[n] = g;
    corners[n] = ((y >> 1) + 1) * cw + (x >> 1) + 1;
    counts[g]!++;
  }
  const places = Array.from(counts, (count, g) => ({
    cells: new Int32Array(count),
    corners: new Int32Array(count),
    across: g & 1 ? 3 : 0,
    down: g & 2 ? cw * 3 : 0,
    weight: (g & 1 ? 0.5 : 1) * (g & 2 ? 0.5 : 1),
  }));
  const filled = new Int32Array(4);
  for (let n = 0; n < cells.length; n++) {
    const g = group[n]!;
    const m = filled[g]!++;
    places[g]!.cells[m] = cells[n]!;
    places[g]!.corners[m] = corners[n]!;
  }
  return places;
}

/** Whether grid point `p` and its 8 neighbours all have the interior stencil (`p` having it keeps the neighbours on the grid). */
function aroundStandard(standard: Uint8Array, p: number, width: number): boolean {
  if (!standard[p]) return false;
  for (let d = 0; d < 9; d++) if (!standard[p + STENCIL_DY[d]! * width + STENCIL_DX[d]!]) return false;
  return true;
}

/**
 * One row of the coarse operator, restriction x fine operator x interpolation, for the coarse
 * point on fine point (x, y): the sum over the fine unknowns i around it and their neighbours j of
 * weight(i) x A(i, j) x (the weight j gives each coarse point).
 */
function galerkinRow(fine: Level, x: number, y: number, row: Float32Array): void {
  const { width, height, mask, stencil, standard, interior } = fine;
  for (let a = 0; a < 9; a++) {
    const ix = x + STENCIL_DX[a]!;
    const iy = y + STENCIL_DY[a]!;
    const i = iy * width + ix;
    if (ix < 0 || iy < 0 || ix >= width || iy >= height || !mask[i]) continue;
    const own = stencil && !standard[i] ? stencil : interior;
    const base = own === stencil ? i * 9 : 0;
    const wI = (STENCIL_DX[a] ? 0.5 : 1) * (STENCIL_DY[a] ? 0.5 : 1);
    for (let d = 0; d < 9; d++) {
      const jx = ix + STENCIL_DX[d]!;
      const jy = iy + STENCIL_DY[d]!;
      const coefficient = own[base + d]!;
      if (coefficient === 0 || !mask[jy * width + jx]) continue;
      // j reads the coarse points (jx >> 1) and, when jx is odd, the next across, and likewise
      // down; this row's point is (x >> 1, y >> 1) in the same terms.
      const across = jx & 1;
      const down = jy & 1;
      const share = wI * coefficient * (across ? 0.5 : 1) * (down ? 0.5 : 1);
      for (let sy = 0; sy <= down; sy++) {
        for (let sx = 0; sx <= across; sx++) row[4 + ((jy >> 1) + sy - (y >> 1)) * 3 + (jx >> 1) + sx - (x >> 1)]! += share;
      }
    }
  }
}

/** The Galerkin product of an interior stencil: the coarse stencil far from any edge. */
function galerkin(fine: Float32Array): Float32Array {
  const out = new Float32Array(9);
  const hat = (v: number) => (v === 0 ? 1 : Math.abs(v) === 1 ? 0.5 : 0);
  for (let d = 0; d < 9; d++) {
    for (let a = 0; a < 9; a++) {
      for (let b = 0; b < 9; b++) {
        const x = STENCIL_DX[a]! + STENCIL_DX[b]! - 2 * STENCIL_DX[d]!;
        const y = STENCIL_DY[a]! + STENCIL_DY[b]! - 2 * STENCIL_DY[d]!;
        out[d]! += hat(STENCIL_DX[a]!) * hat(STENCIL_DY[a]!) * fine[b]! * hat(x) * hat(y);
      }
    }
  }
  return out;
}

function vCycle(levels: Level[], l: number): void {
  const here = levels[l]!;
  if (l === levels.length - 1) {
    relax(here, COARSEST_SWEEPS);
    return;
  }
  const sweeps = here.stencil ? COARSE_SWEEPS : FINE_SWEEPS;
  relax(here, sweeps.before);
  residual(here);
  restrict(here, here.r, levels[l + 1]!, here.stencil ? ALL_GROUPS : RED_GROUPS);
  vCycle(levels, l + 1);
  interpolate(here, levels[l + 1]!, true);
  relax(here, sweeps.after);
}

/** Gauss-Seidel sweeps over the level's unknowns, in its two passes. */
function relax(l: Level, sweeps: number): void {
  const { u, f, stencil, passes } = l;
  const row = l.width * 3;
  // The interior stencil is symmetric: one coefficient for the sides, one for the corners.
  const corner = l.interior[0]!;
  const side = l.interior[1]!;
  const inverse = 1 / l.interior[4]!;
  for (let sweep = 0; sweep < sweeps; sweep++) {
    if (!stencil) {
      for (const cells of passes) {
        for (let n = 0; n < cells.length; n++) {
          const i = cells[n]! * 3;
          u[i] = (u[i - 3]! + u[i + 3]! + u[i - row]! + u[i + row]! + f[i]!) * 0.25;
          u[i + 1] = (u[i - 2]! + u[i + 4]! + u[i + 1 - row]! + u[i + 1 + row]! + f[i + 1]!) * 0.25;
          u[i + 2] = (u[i - 1]! + u[i + 5]! + u[i + 2 - row]! + u[i + 2 + row]! + f[i + 2]!) * 0.25;
        }
      }
      continue;
    }
    const [inner, edge] = passes;
    for (let n = 0; n < inner.length; n++) {
      const i = inner[n]! * 3;
      for (let k = i; k < i + 3; k++) {
        u[k] = (f[k]! - side * (u[k - row]! + u[k - 3]! + u[k + 3]! + u[k + row]!) - corner * (u[k - row - 3]! + u[k - row + 3]! + u[k + row - 3]! + u[k + row + 3]!)) * inverse;
      }
    }
    for (let n = 0; n < edge.length; n++) {
      const p = edge[n]!;
      for (let k = p * 3; k < p * 3 + 3; k++) u[k] = (f[k]! - offCentre(stencil, p * 9, u, k, row)) / stencil[p * 9 + 4]!;
    }
  }
}

/** The stencil at `s` applied to `u` around index `k`, without the centre. */
function offCentre(stencil: Float32Array, s: number, u: Float32Array, k: number, row: number): number {
  return (
    stencil[s]! * u[k - row - 3]! +
    stencil[s + 1]! * u[k - row]! +
    stencil[s + 2]! * u[k - row + 3]! +
    stencil[s + 3]! * u[k - 3]! +
    stencil[s + 5]! * u[k + 3]! +
    stencil[s + 6]! * u[k + row - 3]! +
    stencil[s + 7]! * u[k + row]! +
    stencil[s + 8]! * u[k + row + 3]!
  );
}

function residual(l: Level): void {
  const { u, f, r, stencil } = l;
  const row = l.width * 3;
  if (!stencil) {
    // Only the red points: see `RED_GROUPS`.
    const red = l.passes[0];
    for (let n = 0; n < red.length; n++) {
      const i = red[n]! * 3;
      for (let k = i; k < i + 3; k++) r[k] = f[k]! - 4 * u[k]! + u[k - 3]! + u[k + 3]! + u[k - row]! + u[k + row]!;
    }
    return;
  }
  const corner = l.interior[0]!;
  const side = l.interior[1]!;
  const centre = l.interior[4]!;
  const [inner, edge] = l.passes;
  for (let n = 0; n < inner.length; n++) {
    const i = inner[n]! * 3;
    for (let k = i; k < i + 3; k++) {
      r[k] = f[k]! - centre * u[k]! - side * (u[k - row]! + u[k - 3]! + u[k + 3]! + u[k + row]!) - corner * (u[k - row - 3]! + u[k - row + 3]! + u[k + row - 3]! + u[k + row + 3]!);
    }
  }
  for (let n = 0; n < edge.length; n++) {
    const p = edge[n]!;
    for (let k = p * 3; k < p * 3 + 3; k++) r[k] = f[k]! - stencil[p * 9 + 4]! * u[k]! - offCentre(stencil, p * 9, u, k, row);
  }
}

/** The coarse level's right-hand side from `source` on the fine unknowns of `groups` (interpolation's transpose); its u starts at 0. */
function restrict(fine: Level, source: Float32Array, coarse: Level, groups: readonly number[]): void {
  const target = coarse.f;
  target.fill(0);
  coarse.u.fill(0);
  for (const group of groups) {
    const { cells, corners, across, down, weight } = fine.places![group]!;
    for (let n = 0; n < cells.length; n++) {
      const i = cells[n]! * 3;
      const c = corners[n]! * 3;
      for (let k = 0; k < 3; k++) {
        const share = source[i + k]! * weight;
        target[c + k]! += share;
        if (across) target[c + across + k]! += share;
        if (down) target[c + down + k]! += share;
        if (across && down) target[c + across + down + k]! += share;
      }
    }
  }
}

/** Interpolates the coarse level's u onto the fine unknowns, added to the fine u or replacing it. */
function interpolate(fine: Level, coarse: Level, add: boolean): void {
  const { u } = fine;
  const from = coarse.u;
  for (const { cells, corners, across, down, weight } of fine.places!) {
    for (let n = 0; n < cells.length; n++) {
      const i = cells[n]! * 3;
      const c = corners[n]! * 3;
      for (let k = 0; k < 3; k++) {
        let sum = from[c + k]!;
        if (across) sum += from[c + across + k]!;
        if (down) sum += from[c + down + k]!;
        if (across && down) sum += from[c + across + down + k]!;
        u[i + k] = add ? u[i + k]! + sum * weight : sum * weight;
      }
    }
  }
}
