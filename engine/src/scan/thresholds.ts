import type { ContentClass, ContentScores } from './classify';

/**
 * A class flags an input when its score exceeds its threshold. Each threshold is in [0, 1]; 1 can
 * never be exceeded, so it switches that class off, as does leaving `sexy` out.
 */
export interface ScanThresholds {
  porn: number;
  hentai: number;
  sexy?: number;
}

/**
 * Calibrated on clothed party photos (the six face-api demo photos, at full size and as JPEG
 * copies 224-1024 px wide). The model's answers drift as images get smaller and smoother: Porn
 * rises from at most 0.12 at full size to 0.80 at 320 px, Hentai to 0.57 (0.66 for a photo
 * stored sideways without an orientation tag). Porn therefore flags above 0.9 and Hentai above
 * 0.85, leaving a margin over the worst of those. Sexy is off: the same photos score up to 0.95
 * on it at full size, so no threshold separates them from suggestive images.
 */
export const DEFAULT_SCAN_THRESHOLDS: Readonly<Required<ScanThresholds>> = Object.freeze({ porn: 0.9, hentai: 0.85, sexy: 1 });

const limitOf = (thresholds: ScanThresholds, key: keyof ScanThresholds): number => thresholds[key] ?? 1;

const RULES: readonly [keyof ScanThresholds, ContentClass][] = [
  ['porn', 'Porn'],
  ['hentai', 'Hentai'],
  ['sexy', 'Sexy'],
];

export function assertThresholds(thresholds: ScanThresholds): void {
  for (const [key] of RULES) {
    const value = limitOf(thresholds, key);
    if (!(value >= 0 && value <= 1)) throw new RangeError(`content scan: threshold ${key} must be in [0, 1], got ${value}`);
  }
}

export interface Judgement {
  /** Largest amount by which a score exceeds its threshold; positive means flagged. */
  margin: number;
  /** The rule behind the margin, e.g. "Porn 0.93 > 0.9". */
  rule: string;
}

export function judge(scores: ContentScores, thresholds: ScanThresholds): Judgement {
  return RULES.map(([key, name]) => ({
    margin: scores[name] - limitOf(thresholds, key),
    rule: `${name} ${scores[name].toFixed(2)} > ${limitOf(thresholds, key)}`,
  })).reduce((worst, next) => (next.margin > worst.margin ? next : worst));
}
