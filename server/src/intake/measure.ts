import { EngineError, probeImage, probeMedia } from '@doppel/engine/media';
import { ApiError } from '@doppel/core/errors';
import type { MediaMeasure } from '@doppel/core/db/stored-inputs';
import type { MediaKind } from '@doppel/core/media/sniff';

export const STILL_KINDS: readonly MediaKind[] = ['jpeg', 'png', 'webp'];

/**
 * The engine's limits checked from an input's header (and, for video, its counted packets)
 * before it is scanned or charged: a frame over the pixel limit, a GIF or video over the caps,
 * answers payload_too_large without anything being decoded. For a GIF or video it also returns
 * what pricing needs, measured from the bytes. Media the probe cannot read yields an empty
 * measure: the scan and the engine judge it, and the caller's declared values stand in for
 * pricing meanwhile.
 */
export async function measureMedia(field: string, kind: MediaKind, bytes: Buffer): Promise<MediaMeasure> {
  try {
    if (STILL_KINDS.includes(kind)) {
      await probeImage(bytes);
      return {};
    }
    const { width, height, durationSeconds, frames } = await probeMedia(bytes, { caps: true });
    return { width, height, durationSeconds, frames };
  } catch (error) {
    if (error instanceof EngineError && error.reason === 'media_too_large') {
      throw new ApiError('payload_too_large', `${field}: the ${error.message}.`);
    }
    return {};
  }
}
