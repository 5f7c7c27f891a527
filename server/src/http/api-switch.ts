import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors';
import { isApiEnabled } from '../settings';

/** How long a caller is told to wait while the operator has the API switched off. */
const DISABLED_RETRY_AFTER_SECONDS = 60;

/** The operator's global switch: off answers every API request with 503, before authentication. */
export function honourApiSwitch(app: FastifyInstance): void {
  const { db } = app.deps;
  app.addHook('onRequest', async () => {
    if (!(await isApiEnabled(db))) {
      throw new ApiError('api_temporarily_disabled', 'The API is temporarily disabled; retry later.', {
        headers: { 'retry-after': String(DISABLED_RETRY_AFTER_SECONDS) },
      });
    }
  });
}
