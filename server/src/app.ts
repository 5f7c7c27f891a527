import type { Logger } from 'pino';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { dashboardPlugin } from './dashboard/plugin';
import { answerErrorsWithEnvelope } from './http/error-envelope';
import { acceptJsonOnly } from './http/json-body';
import { answerOtherMethodsWith405, trackRoutes } from './http/method-not-allowed';
import { exposeRequestId, newRequestId } from './http/request-id';
import { apiDocsPlugin } from './ops/api-docs';
import { healthRoutes } from './ops/health';
import { createMetrics, instrumentRequests, serveMetrics, type Metrics } from './ops/metrics';
import { registerTaskMetrics } from './ops/task-metrics';
import { apiRoutes } from './routes/api-routes';
import { createLogger } from './logging';
import type { Runtime } from './runtime';
import type { Services } from './services';
import { LocalStorage } from './storage/local-storage';
import { serveLocalFiles } from './storage/serve-local-files';

export interface AppOptions {
  /** The process's logger (createLogger); a silent-by-config one of its own when absent. */
  logger?: Logger;
  /** A registry to record into; a fresh one per app when absent. */
  metrics?: Metrics;
}

/** The HTTP API: every contract route under /api/v1, plus health, readiness, metrics and docs. */
export async function buildApp(
  runtime: Pick<Runtime, 'config' | 'db' | 'vault'>,
  services: Pick<Services, 'boss' | 'storage' | 'guard' | 'notifications'>,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const { config, db, vault } = runtime;
  const { boss, storage, guard, notifications } = services;
  const metrics = options.metrics ?? createMetrics();
  registerTaskMetrics(metrics, db);
  const app = Fastify({
    // Typed as fastify's base logger so the instance keeps its default type parameters.
    loggerInstance: (options.logger ?? createLogger(config)) as FastifyBaseLogger,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    genReqId: newRequestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // HEAD is not a documented method of any endpoint: it gets 405 like every other one.
    exposeHeadRoutes: false,
  });
  app.decorate('deps', { config, db, vault, metrics, boss, storage, guard, notifications });

  const routes = trackRoutes(app);
  exposeRequestId(app);
  acceptJsonOnly(app);
  answerErrorsWithEnvelope(app);
  instrumentRequests(app, metrics);

  healthRoutes(app);
  serveMetrics(app, metrics, config.metrics);
  await app.register(apiRoutes);
  await app.register(apiDocsPlugin);
  await app.register(dashboardPlugin);
  if (storage instanceof LocalStorage) await serveLocalFiles(app, storage);
  answerOtherMethodsWith405(app, routes);
  return app;
}
