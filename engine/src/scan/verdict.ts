import { classifyPixels, type ContentScores } from './classify';
import { countFrames, decodeFrame } from './decode';
import { assertThresholds, DEFAULT_SCAN_THRESHOLDS, judge, type ScanThresholds } from './thresholds';

export { DEFAULT_SCAN_THRESHOLDS, type ScanThresholds } from './thresholds';

export interface ScanVerdict {
  verdict: 'clean' | 'flagged';
  /** Scores of the frame that decided: the first flagged one, else the one closest to a threshold. */
  scores: ContentScores;
  /** Why the input was flagged, e.g. "frame 3 of 3: Porn 0.93 > 0.9"; absent when clean. */
  reason?: string;
}

/**
 * Classifies frames in order and stops at the first flagged one: one flagged frame flags the
 * whole input.
 */
async function decide(
  count: number,
  picks: number[],
  pixelsOf: (frame: number) => Promise<Uint8Array>,
  thresholds: ScanThresholds,
): Promise<ScanVerdict> {
  assertThresholds(thresholds);
  if (count === 0) throw new RangeError('content scan: no frames to scan');
  let closest: { scores: ContentScores; margin: number } | undefined;
  for (const frame of picks) {
    const scores = await classifyPixels(await pixelsOf(frame));
    const { margin, rule } = judge(scores, thresholds);
    if (margin > 0) return { verdict: 'flagged', scores, reason: count > 1 ? `frame ${frame + 1} of ${count}: ${rule}` : rule };
    if (!closest || margin > closest.margin) closest = { scores, margin };
  }
  return { verdict: 'clean', scores: (closest as { scores: ContentScores }).scores };
}

/**
 * Scans an encoded image. An animated one (GIF, WebP) is scanned on its first, middle and last
 * frames: a few frames keep the scan near the cost of a still, and a clip rarely changes content
 * between them.
 */
export async function scanImage(bytes: Buffer, thresholds: ScanThresholds = DEFAULT_SCAN_THRESHOLDS): Promise<ScanVerdict> {
  const count = await countFrames(bytes);
  const picks = [...new Set([0, Math.floor((count - 1) / 2), count - 1])];
  return decide(count, picks, (frame) => decodeFrame(bytes, frame), thresholds);
}

/** Scans frames the caller extracted (e.g. video stills), each an encoded still image. */
export function scanFrames(frames: Buffer[], thresholds: ScanThresholds = DEFAULT_SCAN_THRESHOLDS): Promise<ScanVerdict> {
  return decide(frames.length, [...frames.keys()], (frame) => decodeFrame(frames[frame] as Buffer), thresholds);
}
