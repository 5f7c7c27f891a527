import { z } from 'zod';
import { TaskIdSchema } from './ids';
import { HttpsUrlSchema } from './url';

export const swapTypes = ['image', 'multi_face_image', 'gif', 'video'] as const;
export const SwapTypeSchema = z.enum(swapTypes);
export type SwapType = z.infer<typeof SwapTypeSchema>;

export const swapStatuses = ['queued', 'preparing', 'processing', 'done', 'failed', 'canceled'] as const;
export const SwapStatusSchema = z.enum(swapStatuses);
export type SwapStatus = z.infer<typeof SwapStatusSchema>;

export const terminalSwapStatuses = ['done', 'failed', 'canceled'] as const satisfies readonly SwapStatus[];
/** Statuses a cancel may still move to `canceled` (spec 3.1). */
export const cancelableSwapStatuses = ['queued', 'preparing'] as const satisfies readonly SwapStatus[];

export function isTerminalSwapStatus(status: SwapStatus): boolean {
  return (terminalSwapStatuses as readonly SwapStatus[]).includes(status);
}

/** Serialised `metadata` may not exceed this many UTF-8 bytes. */
export const MAX_METADATA_BYTES = 16 * 1024;
/** `metadata` may nest objects and arrays at most this deep (the object itself is level 1). */
export const MAX_METADATA_DEPTH = 32;
/** At most this many per-face mappings in one `face_swaps` array. */
export const MAX_FACE_SWAPS = 10;

const utf8 = new TextEncoder();
const utf8Length = (text: string) => utf8.encode(text).length;

/**
 * Whether a parsed JSON value nests objects or arrays deeper than `max`, walked with an explicit
 * stack: a few KiB of `[[[[...` reach a depth at which every recursive walk (JSON.stringify
 * among them) overflows the call stack, so nothing may recurse over it before this check.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

const MetadataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    if (nestsDeeperThan(value, MAX_METADATA_DEPTH)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must nest at most ${MAX_METADATA_DEPTH} levels of objects and arrays` });
    } else if (utf8Length(JSON.stringify(value)) > MAX_METADATA_BYTES) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must serialise to at most ${MAX_METADATA_BYTES} bytes of JSON` });
    }
  })
  .describe(
    `Opaque object echoed back unchanged; at most ${MAX_METADATA_BYTES} bytes as JSON and ${MAX_METADATA_DEPTH} levels deep.`,
  );

const FaceIndexSchema = z.number().int().min(0).describe('Index of a face in face-detection order.');
const SecondsSchema = z.number().finite().min(0);

const common = {
  target_url: HttpsUrlSchema.describe('Public HTTPS URL of the target image, GIF or video.'),
  enable_face_enhancer: z.boolean().optional().describe('Run the face-enhancer post-processor.'),
  webhook_url: HttpsUrlSchema.optional().describe('HTTPS URL that receives the terminal-state webhook.'),
  metadata: MetadataSchema.optional(),
};
const sourceUrl = HttpsUrlSchema.describe('Public HTTPS URL of the face to swap in.');
const timedMedia = {
  reference_frame_time_seconds: SecondsSchema.optional().describe(
    'Seconds into the target whose frame picks the reference face. Omitted: the first frame on which a face is found (every GIF frame, a video every 0.5 s).',
  ),
  duration_seconds: z.number().finite().positive().optional().describe('Declared duration, used for pricing only when it cannot be measured.'),
  file_size_bytes: z.number().int().positive().optional().describe('Declared byte size, used for pricing only when it cannot be measured.'),
};

function uniqueBy<T>(items: T[], key: (item: T) => string, ctx: z.RefinementCtx, what: string): void {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const k = key(item);
    if (seen.has(k)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index], message: `duplicate ${what}` });
    seen.add(k);
  });
}

export const ImageFaceSwapSchema = z
  .object({ face_index: FaceIndexSchema, source_url: sourceUrl, enable_face_enhancer: z.boolean().optional() })
  .strict();

export const VideoFaceSwapSchema = z
  .object({
    frame_time_seconds: SecondsSchema.describe('Seconds into the video of the frame where face_index is counted.'),
    face_index: FaceIndexSchema,
    source_url: sourceUrl,
  })
  .strict();

const ImageSwapBody = z
  .object({ type: z.literal('image'), source_url: sourceUrl, target_face_index: FaceIndexSchema.optional(), ...common })
  .strict();

const MultiFaceImageSwapBody = z
  .object({
    type: z.literal('multi_face_image'),
    face_swaps: z
      .array(ImageFaceSwapSchema)
      .min(1)
      .max(MAX_FACE_SWAPS)
      .superRefine((items, ctx) => uniqueBy(items, (i) => String(i.face_index), ctx, 'face_index')),
    ...common,
  })
  .strict();

const GifSwapBody = z
  .object({
    type: z.literal('gif'),
    source_url: sourceUrl,
    target_face_index: FaceIndexSchema.optional(),
    ...timedMedia,
    ...common,
  })
  .strict();

const VideoSwapBody = z
  .object({
    type: z.literal('video'),
    source_url: sourceUrl.optional().describe('Single-face swap source; omit when face_swaps is given.'),
    face_swaps: z
      .array(VideoFaceSwapSchema)
      .min(1)
      .max(MAX_FACE_SWAPS)
      .superRefine((items, ctx) =>
        uniqueBy(items, (i) => `${i.frame_time_seconds}/${i.face_index}`, ctx, 'face at this frame_time_seconds'),
      )
      .optional(),
    target_face_index: FaceIndexSchema.optional(),
    keep_audio: z.boolean().optional().describe('Keep the target audio track. Default true.'),
    ...timedMedia,
    ...common,
  })
  .strict();

/**
 * Each type's request body by itself, before the rules across its fields that
 * CreateSwapBodySchema adds: for reading back what was stored from a body it validated.
 */
export const swapBodySchemas = {
  image: ImageSwapBody,
  multi_face_image: MultiFaceImageSwapBody,
  gif: GifSwapBody,
  video: VideoSwapBody,
} as const satisfies Record<SwapType, z.AnyZodObject>;

export const CreateSwapBodySchema = z
  .discriminatedUnion('type', [ImageSwapBody, MultiFaceImageSwapBody, GifSwapBody, VideoSwapBody])
  .superRefine((body, ctx) => {
    if (body.type !== 'video') return;
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    if (body.face_swaps && body.source_url) issue('source_url', 'must be omitted when face_swaps is given');
    if (!body.face_swaps && !body.source_url) issue('source_url', 'is required when face_swaps is not given');
    if (body.face_swaps && body.target_face_index !== undefined)
      issue('target_face_index', 'must be omitted when face_swaps is given');
    if (body.face_swaps && body.reference_frame_time_seconds !== undefined)
      issue('reference_frame_time_seconds', 'must be omitted when face_swaps is given');
  })
  .describe('A swap request; which fields apply depends on `type`.');

export type CreateSwapBody = z.infer<typeof CreateSwapBodySchema>;

export const CreateSwapQuerySchema = z.object({
  wait: z
    .enum(['true', 'false'])
    .optional()
    .describe('`true` long-polls until the swap is terminal or the server wait budget ends.'),
});

export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\x21-\x7e]+$/, 'must be visible ASCII characters')
  .describe('Makes a create safe to retry: a repeat replays the first result without a second charge.');

export const CreateSwapHeadersSchema = z.object({
  'idempotency-key': IdempotencyKeySchema.optional(),
});

export const PublicSwapSchema = z
  .object({
    id: TaskIdSchema,
    type: SwapTypeSchema,
    status: SwapStatusSchema,
    credit_cost: z.number().int().min(0).describe('Whole credits charged for the task.'),
    progress: z.number().int().min(0).max(100).describe('Percent complete, 0 to 100.'),
    created_at: z.string().datetime().describe('ISO 8601 UTC timestamp.'),
    result_url: z.string().url().nullable().describe('Public URL of the result once status is done.'),
    error: z.string().nullable().describe('Why the swap failed, when it did.'),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    webhook_url: z.string().url().nullable(),
  })
  .describe('A face-swap task.');

export type PublicSwap = z.infer<typeof PublicSwapSchema>;

export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export const ListSwapsQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .describe(`Page size, 1 to ${MAX_PAGE_SIZE}.`),
  cursor: TaskIdSchema.optional().describe('The next_cursor of the previous page, verbatim.'),
});

export const SwapListPageSchema = z.object({
  data: z.array(PublicSwapSchema),
  next_cursor: z.string().nullable().describe('Pass as cursor to fetch the next page; null on the last page.'),
});

export type SwapListPage = z.infer<typeof SwapListPageSchema>;
