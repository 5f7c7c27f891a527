import { z } from 'zod';

const StoredMediaSchema = z.object({ key: z.string(), kind: z.string(), mimeType: z.string() });

/** The part of a task's `inputs` / `target` column the dashboard reads: where each copy is stored. */
export const SwapInputKeysSchema = z.object({ target: StoredMediaSchema, sources: z.array(StoredMediaSchema) });
export const FaceDetectTargetSchema = StoredMediaSchema;

export type StoredMedia = z.infer<typeof StoredMediaSchema>;
