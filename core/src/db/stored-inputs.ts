import type { CreateSwapBody, MediaKind, SwapType } from '@doppel/contract';

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

/** A create body without the fields stored in columns of their own. */
type WithoutColumns<Body> = Body extends unknown ? Omit<Body, 'type' | 'target_url' | 'webhook_url' | 'metadata'> : never;

/** `swaps.params`: the type-specific request fields, as the contract validated them. */
export type SwapParams = WithoutColumns<CreateSwapBody>;

/** The params of a swap of one type. */
export type SwapParamsOf<Type extends SwapType> = WithoutColumns<Extract<CreateSwapBody, { type: Type }>>;
