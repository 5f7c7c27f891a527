import { EngineError, probeMedia } from '@doppel/worker';
import { ApiError } from '../errors';
import type { MediaKind } from '../media/sniff';

export interface MediaMeasure {
  width?: number;
  height?: number;
  durationSeconds?: number;
  frames?: number;
}

/**
 * What pricing needs to know of a GIF or video target, read from the bytes, with the engine's
 * caps on duration, frames and resolution enforced before anything is charged. Media the probe
 * cannot read yields an empty measure: whether it decodes is the engine's judgement, with a clear
 * task error, and the caller's declared values stand in for pricing meanwhile.
 */
export async function measureTarget(kind: MediaKind, bytes: Buffer): Promise<MediaMeasure> {
  if (kind !== 'gif' && kind !== 'mp4' && kind !== 'mov' && kind !== 'webm') return {};
  try {
    const { width, height, durationSeconds, frames } = await probeMedia(bytes, { caps: true });
    return { width, height, durationSeconds, frames };
  } catch (error) {
    if (error instanceof EngineError && error.reason === 'media_too_large') {
      throw new ApiError('payload_too_large', `target_url: the ${error.message}.`);
    }
    return {};
  }
}
