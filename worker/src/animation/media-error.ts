import { EngineError, type EngineErrorReason } from '../faces/engine-error';

/** Refusals specific to animated media, on top of the still-image reasons. */
export type MediaErrorReason = 'ffmpeg_unavailable' | 'media_too_large';

/**
 * An EngineError for animated media. The reasons travel through `Outcome` like every other
 * refusal; `engine-error.ts` owns the reason union, so these two are widened into it here, in one
 * place, until that union lists them itself.
 */
export function mediaError(reason: MediaErrorReason | EngineErrorReason, message: string, options?: ErrorOptions): EngineError {
  return new EngineError(reason as EngineErrorReason, message, options);
}
