import fastifyCookie from '@fastify/cookie';
import { dashboardContract } from '@doppel/contract/dashboard';
import type { FastifyInstance } from 'fastify';
import { tsRest } from '../routes/ts-rest';
import { validationFailure } from '../http/validation-error';
import { answerDashboardErrors } from './errors';
import { createKey, listKeys, revokeKey } from './key-routes';
import { overview } from './overview';
import { faceDetectPreview, listFaceDetections, swapPreview } from './preview-routes';
import { guardSessions } from './session-guard';
import { acceptInvite, changePassword, getSession, signIn, signOut } from './session-routes';
import { serveDashboardApp, sendSecurityHeaders } from './static-assets';
import { cancelSwap, getSwap, listSwaps, resendDelivery } from './swap-routes';

/**
 * The user dashboard at /dashboard: its app and its own endpoints (session cookie, CSRF token),
 * in a scope of their own so nothing here reaches the public API's hooks or the reverse.
 */
export async function dashboardPlugin(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCookie);
  answerDashboardErrors(app);
  sendSecurityHeaders(app);
  await serveDashboardApp(app);
  const router = tsRest.router(dashboardContract, {
    getSession,
    signIn,
    signOut,
    acceptInvite,
    changePassword,
    overview,
    listKeys,
    createKey,
    revokeKey,
    listSwaps,
    getSwap,
    swapPreview,
    cancelSwap,
    resendDelivery,
    listFaceDetections,
    faceDetectPreview,
  });
  // Sessions are looked up for the endpoints only: the app's pages and assets need none.
  await app.register(async (child) => {
    guardSessions(child);
    tsRest.registerRouter(dashboardContract, router, child, {
      logInitialization: false,
      requestValidationErrorHandler: validationFailure,
    });
  });
}
