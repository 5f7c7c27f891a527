import { swapBodySchemas, type MediaKind, type SwapType } from '@doppel/contract';
import type { z } from 'zod';

/** What was measured of a GIF or video input at create time, for pricing and the engine. */
export interface MediaMeasure {
  width?: number;
  height?: number;
  durationSeconds?: number;
  frames?: number;
}

/** Where an input was copied at create time (`face_detect_tasks.target`, and each of a swap's inputs). */
export interface StoredInput {
  key: string;
  kind: MediaKind;
  mimeType: string;
}

/** `swaps.inputs`: where the copied inputs live in storage, and what was measured of them. */
export interface SwapInputs {
  target: StoredInput & MediaMeasure;
  /** One per distinct source URL, in the order of first mention. */
  sources: (StoredInput & { url: string })[];
}

/** The create body's fields that a swap keeps in columns of their own rather than in `params`. */
const COLUMNS = { type: true, target_url: true, webhook_url: true, metadata: true } as const;

/**
 * `swaps.params` of each type: the type's create body without the fields kept in columns. The
 * params were written from a body the contract validated, so reading them back parses them with
 * the same schema.
 */
export const swapParamsSchemas = {
  image: swapBodySchemas.image.omit(COLUMNS),
  multi_face_image: swapBodySchemas.multi_face_image.omit(COLUMNS),
  gif: swapBodySchemas.gif.omit(COLUMNS),
  video: swapBodySchemas.video.omit(COLUMNS),
} as const satisfies Record<SwapType, z.AnyZodObject>;

/** The params of a swap of one type. */
export type SwapParamsOf<Type extends SwapType> = z.infer<(typeof swapParamsSchemas)[Type]>;

/** `swaps.params`: the type-specific request fields, as the contract validated them. */
export type SwapParams = SwapParamsOf<SwapType>;
