import type { Logger } from 'pino';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  answerClientErrors,
  closeConnectionsWithUnreadBodies,
  defaultMaxConnections,
  openFileLimit,
} from './http/connection-limits';
import { dashboardPlugin } from './dashboard/plugin';
import { Drain, refuseNewRequestsWhileDraining } from './http/drain';
import { answerErrorsWithEnvelope, answerRouterErrorsWithEnvelope } from './http/error-envelope';
import { acceptJsonOnly } from './http/json-body';
import { answerOtherMethodsWith405, trackRoutes } from './http/method-not-allowed';
import { exposeRequestId, newRequestId } from './http/request-id';
import { apiDocsPlugin } from './ops/api-docs';
import { healthRoutes } from './ops/health';
import { createMetrics, instrumentRequests, serveMetrics, type Metrics } from './ops/metrics';
import { registerTaskMetrics } from './ops/task-metrics';
import { apiRoutes } from './routes/api-routes';
import { createLogger } from '@doppel/core/logging';
import type { Runtime } from '@doppel/core/runtime';
import type { Services } from '@doppel/core/services';
import { LocalStorage } from '@doppel/core/storage/local-storage';
import { serveLocalFiles } from './storage/serve-local-files';
import { IntakeBudget } from './intake/intake-budget';

export interface AppOptions {
  /** The process's logger (createLogger); a silent-by-config one of its own when absent. */
  logger?: Logger;
  /** A registry to record into; a fresh one per app when absent. */
  metrics?: Metrics;
}

const trustNearestHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The HTTP API: every contract route under /api/v1, plus health, readiness, metrics and docs. */
export async function buildApp(
  runtime: Pick<Runtime, 'config' | 'db' | 'vault'>,
  services: Pick<Services, 'boss' | 'storage' | 'guard' | 'notifications' | 'instance'>,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const { config, db, vault } = runtime;
  const { boss, storage, guard, notifications, instance } = services;
  const metrics = options.metrics ?? createMetrics();
  registerTaskMetrics(metrics, db);
  const logger = (options.logger ?? createLogger(config)) as FastifyBaseLogger;
  const app = Fastify({
    // Typed as fastify's base logger so the instance keeps its default type parameters.
    loggerInstance: logger,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    genReqId: newRequestId,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    // A hop count trusts the nearest N peers (fastify's types take it only as a function).
    trustProxy: typeof config.trustProxy === 'number' ? trustNearestHops(config.trustProxy) : config.trustProxy,
    // HEAD is not a documented method of any endpoint: it gets 405 like every other one.
    exposeHeadRoutes: false,
    // Ids longer than the contract allows reach zod and get its validation_error naming the
    // field; Node's own 16 KiB header cap bounds the URL long before this does.
    routerOptions: { maxParamLength: 16 * 1024 },
    frameworkErrors: answerRouterErrorsWithEnvelope,
    // While closing, requests are answered by refuseNewRequestsWhileDraining, in the envelope.
    return503OnClosing: false,
    // A client that stalls its headers or body loses the connection (see docs/operations.md);
    // once a request is read, its handler's own limits apply (fetch timeout, wait budget).
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: {
      headersTimeout: Math.min(10_000, Math.ceil(config.http.requestTimeoutMs / 3)),
      // How often Node looks for requests past those timeouts (its default is 30 s).
      connectionsCheckingInterval: 1_000,
    },
    clientErrorHandler: answerClientErrors(logger),
  });
  app.server.maxConnections = config.http.maxConnections ?? defaultMaxConnections(openFileLimit(), config.dbPoolSize);
  const drain = new Drain();
  const intakeBudget = new IntakeBudget(config.media.intakeBudgetBytes);
  app.decorate('deps', { config, db, vault, metrics, boss, storage, guard, notifications, instance, drain, intakeBudget });

  const routes = trackRoutes(app);
  exposeRequestId(app);
  refuseNewRequestsWhileDraining(app, drain);
  closeConnectionsWithUnreadBodies(app);
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
