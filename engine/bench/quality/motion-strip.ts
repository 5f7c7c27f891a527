import sharp, { type OverlayOptions } from 'sharp';
import { STRIP_TILE, type MotionResult } from './motion';

/** In-view frames shown per clip, picked evenly from first to last. */
const FRAMES_PER_CLIP = 10;
const GAP = 6;
const LABEL = 18;
const TITLE = 22;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const label = (text: string, width: number, height: number, size: number) =>
  Buffer.from(`<svg width="${width}" height="${height}"><text x="2" y="${height - 5}" font-family="sans-serif" font-size="${size}" fill="#222">${escape(text)}</text></svg>`);

/**
 * The motion strip: per clip, its name, then up to `FRAMES_PER_CLIP` of its in-view frames, the
 * person's face before (top) and after the swap (bottom), each with its frame number and which
 * recogniser found the source in it (R: faceres, D: faceres-deep; a dash where it did not).
 */
export async function motionStrip(results: MotionResult[]): Promise<Buffer> {
  const column = STRIP_TILE + GAP;
  const width = FRAMES_PER_CLIP * column - GAP;
  const row = TITLE + 2 * STRIP_TILE + LABEL + GAP;
  const parts: OverlayOptions[] = [];
  for (const [r, result] of results.entries()) {
    const top = r * row;
    parts.push({ input: label(result.clip.name, width, TITLE, 14), left: 0, top });
    const shown = FRAMES_PER_CLIP >= result.frames.length ? result.frames : Array.from({ length: FRAMES_PER_CLIP }, (_, i) => result.frames[Math.round((i * (result.frames.length - 1)) / (FRAMES_PER_CLIP - 1))]!);
    for (const [c, frame] of shown.entries()) {
      const left = c * column;
      parts.push({ input: frame.before, left, top: top + TITLE }, { input: frame.after, left, top: top + TITLE + STRIP_TILE });
      const marks = frame.passes ? `${frame.passes.faceres ? 'R' : '-'}${frame.passes['faceres-deep'] ? 'D' : '-'}` : 'not found';
      parts.push({ input: label(`${frame.index} · ${marks}`, STRIP_TILE, LABEL, 12), left, top: top + TITLE + 2 * STRIP_TILE });
    }
  }
  return sharp({ create: { width, height: results.length * row, channels: 3, background: '#ffffff' } })
    .composite(parts)
    .jpeg({ quality: 80 })
    .toBuffer();
}
