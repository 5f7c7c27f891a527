import { z } from 'zod';

export const AccountSnapshotSchema = z
  .object({
    user_id: z.string(),
    email_verified: z.boolean(),
    subscription_tier: z.string(),
    credits: z.object({
      permanent: z.number().int(),
      monthly: z.number().int(),
      subscription: z.number().int(),
      total: z.number().int(),
    }),
    rate_limit: z.object({
      limit: z.number().int().describe('Requests allowed per sliding window.'),
      window_seconds: z.number().int(),
      remaining: z.number().int().describe('Requests left in the current window, after this one.'),
    }),
  })
  .describe('The calling account: credit balances by bucket and the live rate-limit state.');

export type AccountSnapshot = z.infer<typeof AccountSnapshotSchema>;
