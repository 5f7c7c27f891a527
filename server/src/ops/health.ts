import type { FastifyInstance } from 'fastify';
import type { Db } from '@doppel/core/db/connect';
import { isMigrated } from '@doppel/core/db/migrate';
import { ApiError } from '@doppel/core/errors';

const READINESS_TIMEOUT_MS = 3_000;

/** True when the database answers in time and every migration of this build is applied. */
async function databaseReady(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([isMigrated(db).catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for orchestrators, outside /api/v1: no authentication, no rate limit. `/healthz` says
 * the process serves requests; `/readyz` also needs the database reachable and migrated.
 */
export function healthRoutes(app: FastifyInstance): void {
  const { db } = app.deps;
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    if (!(await databaseReady(db))) {
      throw new ApiError('api_temporarily_disabled', 'Not ready: the database is unreachable or not migrated.', {
        headers: { 'retry-after': '5' },
      });
    }
    return { status: 'ready' };
  });
}
