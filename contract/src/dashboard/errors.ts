import { z } from 'zod';
import { errorStatusByCode } from '../errors';

/**
 * The dashboard's own error codes, beside the API's: they describe a browser session, not an
 * API key, and never appear in the public API.
 */
export const dashboardErrorStatusByCode = {
  ...errorStatusByCode,
  session_required: 401,
  sign_in_failed: 401,
  wrong_password: 403,
  csrf_rejected: 403,
  invite_invalid: 410,
} as const;

export type DashboardErrorCode = keyof typeof dashboardErrorStatusByCode;

export const DashboardErrorSchema = z.object({
  error: z.object({
    code: z.enum(Object.keys(dashboardErrorStatusByCode) as [DashboardErrorCode, ...DashboardErrorCode[]]),
    message: z.string(),
    request_id: z.string(),
  }),
});

export type DashboardError = z.infer<typeof DashboardErrorSchema>;
