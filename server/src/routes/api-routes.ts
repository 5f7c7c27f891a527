import { contract } from '@doppel/contract';
import type { FastifyInstance } from 'fastify';
import { requireApiKey } from '../auth/authenticate';
import { honourApiSwitch } from '../http/api-switch';
import { validationFailure } from '../http/validation-error';
import { enforceRateLimit } from '../rate-limit/enforce-rate-limit';
import { cancelSwap } from './cancel-swap';
import { createFaceDetect } from './create-face-detect';
import { createSwap } from './create-swap';
import { getFaceDetect, getFaceDetectRead } from './get-face-detect';
import { getSwap, getSwapRead } from './get-swap';
import { listSwaps, listSwapsRead } from './list-swaps';
import { me, meRead } from './me';
import { tsRest } from './ts-rest';

/**
 * Every contract endpoint under /api/v1. Registered as a child plugin: ts-rest installs its own
 * error handler on the scope it is given, and the root's envelope handler must stay in charge.
 * Hooks run before the body is read: API switch, then authentication, then the rate limit, whose
 * statement also makes the one read of GET /me, GET /swaps, GET /swaps/{id} and
 * GET /face-detect/{id}.
 */
export async function apiRoutes(app: FastifyInstance): Promise<void> {
  honourApiSwitch(app);
  requireApiKey(app);
  enforceRateLimit(app, [meRead, getSwapRead, listSwapsRead, getFaceDetectRead]);
  const router = tsRest.router(contract, {
    me,
    listSwaps,
    createSwap,
    getSwap,
    cancelSwap,
    createFaceDetect,
    getFaceDetect,
  });
  tsRest.registerRouter(contract, router, app, {
    logInitialization: false,
    requestValidationErrorHandler: validationFailure,
  });
}
