import sharp, { type OverlayOptions } from 'sharp';
import type { MeshTopology } from '../../src/faces/mesh-topology';
import { swapFaceInto } from '../../src/swap/swap-face';
import { glassesOn } from '../../test/quality/occluders';
import { handAcross, type HandCutout } from '../../test/quality/hand';
import { keptShare } from '../../test/quality/image-region';
import { faceTile, type DemoFace } from './stills';

/** A glasses frame's colour: near black. */
const FRAME = [25, 25, 28] as const;
/** Side of a tile of the occluder strip, px. */
const TILE = 120;

export interface OccluderResult {
  target: DemoFace;
  source: DemoFace;
  /** Share of the occluder's pixels inside the face's box left as they were. */
  kept: number;
  /** The face with the occluder, before and after the swap (`TILE` px JPEGs). */
  before: Buffer;
  after: Buffer;
}

export interface GlassesResult extends OccluderResult {
  /** Share of the eyes' pixels (behind the lenses) the new face changed. */
  eyesChanged: number;
}

/** Draws a glasses frame across `target`'s face (`glassesOn`), swaps `source` in, and measures how much of the frame stayed in front. */
export async function measureGlasses(target: DemoFace, source: DemoFace, topology: MeshTopology): Promise<GlassesResult> {
  const { face } = target.seen;
  const { frame, eyes } = glassesOn(face, target.image);
  const painted = Uint8Array.from(target.image.rgb);
  for (const p of frame) painted.set(FRAME, p * 3);
  const result = { ...target.image, rgb: Uint8Array.from(painted) };
  swapFaceInto(result, face, source.prepared, { topology, fineOccluders: true });
  const { x, y, width, height } = face.box;
  const onFace = frame.filter((p) => {
    const [px, py] = [p % target.image.width, Math.floor(p / target.image.width)];
    return px >= x && px < x + width && py >= y && py < y + height;
  });
  return {
    target,
    source,
    kept: keptShare(result.rgb, painted, onFace),
    eyesChanged: 1 - keptShare(result.rgb, painted, eyes),
    before: await faceTile({ ...target.image, rgb: painted }, face.box, TILE),
    after: await faceTile(result, face.box, TILE),
  };
}

/** Lays `hand` across `target`'s face (`handAcross`), swaps `source` in, and measures how much of the hand stayed in front. */
export async function measureHand(target: DemoFace, source: DemoFace, hand: HandCutout, topology: MeshTopology): Promise<OccluderResult> {
  const { face } = target.seen;
  const { image, onFace } = handAcross(target.image, face.box, hand);
  const result = { ...image, rgb: Uint8Array.from(image.rgb) };
  swapFaceInto(result, face, source.prepared, { topology, fineOccluders: true });
  return {
    target,
    source,
    kept: keptShare(result.rgb, image.rgb, onFace),
    before: await faceTile(image, face.box, TILE),
    after: await faceTile(result, face.box, TILE),
  };
}

const GAP = 6;
const LABEL = 18;

/** An occluder strip: per result, the face with its occluder before (top) and after the swap (bottom), with the share of the occluder kept. */
export async function occluderStrip(results: OccluderResult[]): Promise<Buffer> {
  const column = TILE + GAP;
  const parts: OverlayOptions[] = [];
  for (const [c, r] of results.entries()) {
    const left = c * column;
    parts.push({ input: r.before, left, top: 0 }, { input: r.after, left, top: TILE });
    const text = `${r.target.id} ← ${r.source.id} · ${(100 * r.kept).toFixed(0)} %`;
    parts.push({ input: Buffer.from(`<svg width="${TILE}" height="${LABEL}"><text x="2" y="${LABEL - 5}" font-family="sans-serif" font-size="12" fill="#222">${text}</text></svg>`), left, top: 2 * TILE });
  }
  return sharp({ create: { width: results.length * column - GAP, height: 2 * TILE + LABEL, channels: 3, background: '#ffffff' } })
    .composite(parts)
    .jpeg({ quality: 80 })
    .toBuffer();
}
