import sharp, { type OverlayOptions } from 'sharp';
import { TILE, faceTile, type StillResult } from './stills';

const COLUMNS = 4;
const GAP = 12;
const LABEL = 22;

/**
 * The contact sheet: per pair, the source face, the target and the result side by side, with the
 * pair's name and identity margins (faceres / faceres-deep) under it.
 */
export async function contactSheet(pairs: { result: StillResult; why: string }[]): Promise<Buffer> {
  const cell = { width: 3 * TILE + GAP, height: TILE + LABEL + GAP };
  const rows = Math.ceil(pairs.length / COLUMNS);
  const parts: OverlayOptions[] = [];
  for (const [i, { result, why }] of pairs.entries()) {
    const left = (i % COLUMNS) * cell.width;
    const top = Math.floor(i / COLUMNS) * cell.height;
    const source = await faceTile(result.source.image, result.source.seen.face.box);
    const target = await faceTile(result.target.image, result.target.seen.face.box);
    parts.push({ input: source, left, top }, { input: target, left: left + TILE, top }, { input: result.tile, left: left + 2 * TILE, top });
    const margins = result.margins ? `${result.margins.faceres.toFixed(2)} / ${result.margins['faceres-deep'].toFixed(2)}` : 'not found';
    const text = `${result.target.id} ← ${result.source.id} · ${why} · ${margins} · ΔE ${result.tone.toFixed(1)}`;
    parts.push({ input: Buffer.from(`<svg width="${3 * TILE}" height="${LABEL}"><text x="2" y="16" font-family="sans-serif" font-size="13" fill="#222">${text}</text></svg>`), left, top: top + TILE + 2 });
  }
  return sharp({ create: { width: COLUMNS * cell.width - GAP, height: rows * cell.height, channels: 3, background: '#ffffff' } })
    .composite(parts)
    .jpeg({ quality: 80 })
    .toBuffer();
}
