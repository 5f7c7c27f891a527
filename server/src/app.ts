import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { answerErrorsWithEnvelope } from './http/error-envelope';
import { acceptJsonOnly } from './http/json-body';
import { loggerOptions } from './http/logging';
import { answerOtherMethodsWith405, trackRoutes } from './http/method-not-allowed';
import { exposeRequestId, newRequestId } from './http/request-id';
import { apiDocsPlugin } from './ops/api-docs';
import { healthRoutes } from './ops/health';
import { createMetrics, instrumentRequests, serveMetrics, type Metrics } from './ops/metrics';
import { apiRoutes } from './routes/api-routes';
import type { Runtime } from './runtime';

export interface AppOptions {
  /** Where the JSON log lines go; stdout when absent. */
  logStream?: NodeJS.WritableStream;
  /** A registry to record into; a fresh one per app when absent. */
  metrics?: Metrics;
}

/** The HTTP API: every contract route under /api/v1, plus health, readiness, metrics and docs. */
export async function buildApp(runtime: Pick<Runtime, 'config' | 'db' | 'vault'>, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config, db, vault } = runtime;
  const metrics = options.metrics ?? createMetrics();
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    genReqId: newRequestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // HEAD is not a documented method of any endpoint: it gets 405 like every other one.
    exposeHeadRoutes: false,
  });
  app.decorate('deps', { config, db, vault, metrics });

  const routes = trackRoutes(app);
  exposeRequestId(app);
  acceptJsonOnly(app);
  answerErrorsWithEnvelope(app);
  instrumentRequests(app, metrics);

  healthRoutes(app);
  serveMetrics(app, metrics, config.metrics);
  await app.register(apiRoutes);
  await app.register(apiDocsPlugin);
  answerOtherMethodsWith405(app, routes);
  return app;
}
