import type { FastifyInstance } from 'fastify';
import { ApiError } from '@doppel/core/errors';
import { NotifiedCache } from '@doppel/core/queue/notified-cache';
import { API_ENABLED, isApiEnabled } from '@doppel/core/settings';

/** How long a caller is told to wait while the operator has the API switched off. */
const DISABLED_RETRY_AFTER_SECONDS = 60;

/**
 * The operator's global switch: off answers every API request with 503, before authentication.
 * Kept in memory; a change reaches every process through `doppel_setting` (migration 0006).
 */
export function honourApiSwitch(app: FastifyInstance): void {
  const { db, notifications } = app.deps;
  const settings = new NotifiedCache<boolean>(notifications, 'doppel_setting', 1);
  app.addHook('onRequest', async () => {
    const enabled = settings.peek(API_ENABLED) ?? (await settings.get(API_ENABLED, () => isApiEnabled(db)));
    if (!enabled) {
      throw new ApiError('api_temporarily_disabled', 'The API is temporarily disabled; retry later.', {
        headers: { 'retry-after': String(DISABLED_RETRY_AFTER_SECONDS) },
      });
    }
  });
}
