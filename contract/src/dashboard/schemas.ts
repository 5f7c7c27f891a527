import { z } from 'zod';
import { faceDetectStatuses, DetectedFaceSchema } from '../schemas/face-detect';
import { TaskIdSchema } from '../schemas/ids';
import { PublicSwapSchema, SwapStatusSchema, SwapTypeSchema } from '../schemas/swaps';
import { WebhookEventTypeSchema } from '../schemas/webhook';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

export const PasswordSchema = z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH);

export const DashboardUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  subscription_tier: z.string(),
});

/** The signed-in user and the token every state-changing request sends as `x-csrf-token`. */
export const SessionSchema = z.object({ user: DashboardUserSchema, csrf_token: z.string() });
export type Session = z.infer<typeof SessionSchema>;

export const SignInBodySchema = z.object({ email: z.string().min(1).max(320), password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });
export const SetPasswordBodySchema = z.object({ password: PasswordSchema });
export const ChangePasswordBodySchema = z.object({
  current_password: z.string().min(1).max(MAX_PASSWORD_LENGTH),
  new_password: PasswordSchema,
});

export const InviteParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/) });

export const CsrfHeadersSchema = z.object({ 'x-csrf-token': z.string().optional() });

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const RequestBudgetSchema = z.object({
  key_id: z.string(),
  key_name: z.string().nullable(),
  prefix: z.string(),
  minute: z.object({ used: z.number().int(), limit: z.number().int() }),
  today: z.object({ used: z.number().int(), limit: z.number().int() }),
});

export const OverviewSchema = z.object({
  credits: z.object({
    subscription: z.number().int(),
    monthly: z.number().int(),
    permanent: z.number().int(),
    total: z.number().int(),
  }),
  /** One entry per live key: the request budget is counted per key. */
  budgets: z.array(RequestBudgetSchema),
  /** The last 30 UTC days, oldest first, today included. */
  daily: z.array(z.object({ day, swaps: z.number().int(), credits: z.number().int() })),
  latest_swaps: z.array(PublicSwapSchema),
});
export type Overview = z.infer<typeof OverviewSchema>;

export const KeyIdParamsSchema = z.object({ keyId: TaskIdSchema });

export const DashboardKeySchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  created_at: z.string().datetime(),
  last_used_at: z.string().datetime().nullable(),
  revoked_at: z.string().datetime().nullable(),
});
export type DashboardKey = z.infer<typeof DashboardKeySchema>;

export const CreateKeyBodySchema = z.object({ name: z.string().trim().max(100).optional() });
export const CreatedKeySchema = z.object({ key: DashboardKeySchema, secret: z.string() });

export const DashboardSwapsQuerySchema = z.object({
  status: SwapStatusSchema.optional(),
  type: SwapTypeSchema.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const DashboardSwapPageSchema = z.object({
  data: z.array(PublicSwapSchema),
  next_cursor: z.string().nullable(),
});

export const SwapIdParamsSchema = z.object({ swapId: TaskIdSchema });

export const previewRoles = ['target', 'source', 'result'] as const;
export const PreviewParamsSchema = z.object({
  swapId: TaskIdSchema,
  role: z.enum(previewRoles),
  index: z.coerce.number().int().min(0).max(20),
});

export const DeliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  started_at: z.string().datetime(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
});

export const DeliverySchema = z.object({
  id: z.string(),
  event: WebhookEventTypeSchema,
  url: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  created_at: z.string().datetime(),
  next_attempt_at: z.string().datetime().nullable(),
  attempts: z.array(DeliveryAttemptSchema),
});
export type Delivery = z.infer<typeof DeliverySchema>;

export const PreviewSchema = z.object({
  role: z.enum(previewRoles),
  index: z.number().int(),
  kind: z.string(),
  /** Path of the server-made thumbnail; never the caller's URL. */
  src: z.string(),
});

export const SwapDetailSchema = z.object({
  swap: PublicSwapSchema,
  cancelable: z.boolean(),
  previews: z.array(PreviewSchema),
  deliveries: z.array(DeliverySchema),
});
export type SwapDetail = z.infer<typeof SwapDetailSchema>;

export const DeliveryIdParamsSchema = z.object({ deliveryId: TaskIdSchema });

export const FaceDetectionSchema = z.object({
  id: z.string(),
  status: z.enum(faceDetectStatuses),
  faces: z.array(DetectedFaceSchema).nullable(),
  error: z.string().nullable(),
  created_at: z.string().datetime(),
  preview: z.string(),
});
export type FaceDetection = z.infer<typeof FaceDetectionSchema>;

export const FaceDetectParamsSchema = z.object({ taskId: TaskIdSchema });
