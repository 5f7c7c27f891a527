import { classifyImage, classifyPixels, type ContentScores } from './classify';
import { countFrames, decodeFrame } from './decode';

/**
 * Scores at or above which an input is flagged. MobileNetV2 is a weak judge of ordinary photos:
 * the face-api demo group photos score up to 0.5 "Porn" and 0.53 "Sexy". Flagging therefore
 * needs a confident explicit verdict, and "Sexy" alone flags nothing unless an operator sets it.
 */
export interface ScanThresholds {
  porn: number;
  hentai: number;
  sexy?: number;
}

export const DEFAULT_SCAN_THRESHOLDS: ScanThresholds = { porn: 0.85, hentai: 0.85 };

export interface ScanVerdict {
  verdict: 'clean' | 'flagged';
  /** The scores of the frame that decided: the flagged one, or the highest-risk clean one. */
  scores: ContentScores;
  reason?: string;
}

const risk = (s: ContentScores) => s.Porn + s.Hentai + s.Sexy;

export function judge(scores: ContentScores, thresholds: ScanThresholds = DEFAULT_SCAN_THRESHOLDS): ScanVerdict {
  const over = (
    [
      ['Porn', thresholds.porn],
      ['Hentai', thresholds.hentai],
      ['Sexy', thresholds.sexy],
    ] as const
  ).find(([name, limit]) => limit !== undefined && scores[name] >= limit);
  return over
    ? { verdict: 'flagged', scores, reason: `${over[0]} score ${scores[over[0]].toFixed(2)} >= ${over[1]}` }
    : { verdict: 'clean', scores };
}

/** Judges several frames: any flagged frame flags the whole input. */
export function judgeFrames(frames: ContentScores[], thresholds?: ScanThresholds): ScanVerdict {
  const verdicts = frames.map((scores) => judge(scores, thresholds));
  return (
    verdicts.find((v) => v.verdict === 'flagged') ??
    verdicts.reduce((worst, v) => (risk(v.scores) > risk(worst.scores) ? v : worst))
  );
}

/** An image; for an animated one its first, middle and last frames. */
export async function scanImage(bytes: Buffer, thresholds?: ScanThresholds): Promise<ScanVerdict> {
  const frames = await countFrames(bytes);
  if (frames <= 1) return judge((await classifyImage(bytes)).scores, thresholds);
  const picks = [...new Set([0, Math.floor(frames / 2), frames - 1])];
  const scores = [];
  for (const frame of picks) scores.push(await classifyPixels(await decodeFrame(bytes, frame)));
  return judgeFrames(scores, thresholds);
}

/** Stills taken from a video (encoded images). */
export async function scanStills(stills: Buffer[], thresholds?: ScanThresholds): Promise<ScanVerdict> {
  const scores = [];
  for (const still of stills) scores.push((await classifyImage(still)).scores);
  return judgeFrames(scores, thresholds);
}
