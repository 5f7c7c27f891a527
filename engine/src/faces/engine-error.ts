/** Why the engine refused an input; stable values that job handlers map to a task's `error`. */
export type EngineErrorReason =
  | 'undecodable_input'
  | 'unsupported_format'
  | 'image_too_large'
  | 'no_face_in_source'
  | 'no_face_in_target'
  | 'face_index_out_of_range'
  | 'ffmpeg_unavailable'
  | 'media_too_large'
  | 'frame_time_out_of_range';

/** The one error the engine throws for a bad input; `message` is fit to show to the API user. */
export class EngineError extends Error {
  override readonly name = 'EngineError';

  constructor(
    readonly reason: EngineErrorReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
