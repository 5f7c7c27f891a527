import type { SwapType } from '@doppel/contract';

/**
 * What is known of the inputs when a swap is priced. Measured values win; the caller's declared
 * `duration_seconds` / `file_size_bytes` are used only where nothing could be measured.
 */
export interface PricingInput {
  type: SwapType;
  /** Number of target faces the request maps: `face_swaps.length`, or 1. */
  mappedFaces: number;
  durationSeconds?: number;
  width?: number;
  height?: number;
  fileSizeBytes?: number;
}

/** The whole price list (docs/pricing.md explains each rule). */
export const PRICES = {
  image: 1,
  multiFacePerFace: 1,
  /** GIFs up to this length are free. */
  gifFreeSeconds: 3,
  /** Past the free threshold, a GIF costs this many credits per started block of seconds. */
  gifPerBlock: 1,
  gifBlockSeconds: 5,
  /** Video: credits per started block of seconds, per mapped face, times the resolution tier. */
  videoPerBlock: 2,
  videoBlockSeconds: 10,
  /** Pixels per frame up to which each tier applies; larger frames use the last multiplier. */
  videoTiers: [
    { maxPixels: 1280 * 720, multiplier: 1 },
    { maxPixels: 1920 * 1080, multiplier: 2 },
    { maxPixels: Infinity, multiplier: 4 },
  ],
  /** When no duration is known at all, a video is priced as this many seconds per started MiB. */
  videoSecondsPerMiB: 2,
} as const;

const blocks = (value: number, size: number) => Math.max(1, Math.ceil(value / size));

function videoSeconds(input: PricingInput): number {
  if (input.durationSeconds !== undefined) return input.durationSeconds;
  const mib = Math.ceil((input.fileSizeBytes ?? 0) / (1024 * 1024));
  return Math.max(1, mib) * PRICES.videoSecondsPerMiB;
}

function resolutionMultiplier(width = 0, height = 0): number {
  const pixels = width * height;
  return PRICES.videoTiers.find((tier) => pixels <= tier.maxPixels)!.multiplier;
}

/** Whole credits a swap costs. */
export function priceSwap(input: PricingInput): number {
  switch (input.type) {
    case 'image':
      return PRICES.image;
    case 'multi_face_image':
      return PRICES.multiFacePerFace * input.mappedFaces;
    case 'gif': {
      const seconds = input.durationSeconds ?? 0;
      if (seconds <= PRICES.gifFreeSeconds) return 0;
      return PRICES.gifPerBlock * blocks(seconds, PRICES.gifBlockSeconds);
    }
    case 'video':
      return (
        PRICES.videoPerBlock *
        blocks(videoSeconds(input), PRICES.videoBlockSeconds) *
        resolutionMultiplier(input.width, input.height) *
        input.mappedFaces
      );
  }
}

/**
 * The least a swap of this type and face count can cost, whatever its inputs turn out to be
 * (a GIF can be free; a video costs at least one block at the lowest tier).
 */
export function cheapestPrice(type: PricingInput['type'], mappedFaces: number): number {
  return priceSwap({ type, mappedFaces, durationSeconds: 0 });
}
