import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Config } from '@doppel/core/config';
import { ApiError } from '@doppel/core/errors';
import { newRequestId } from '../http/request-id';

/**
 * The Prometheus registry of one app and the HTTP metrics recorded into it. Other parts add
 * their own collectors (task outcomes, queue depth) with `registers: [metrics.registry]`.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The separate server for /metrics when DOPPEL_METRICS_PORT is set, else null. */
    metricsServer: FastifyInstance | null;
  }
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  return {
    registry,
    httpRequests: new Counter({
      name: 'doppel_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'doppel_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status.',
      labelNames,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
  };
}

/** Records every answered request by its route pattern (never the raw URL, to bound labels). */
export function instrumentRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** True when the request carries `Authorization: Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(sent), digest(token));
}

function metricsEndpoint(app: FastifyInstance, registry: Registry, token: string | undefined): void {
  app.get('/metrics', async (request, reply) => {
    if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
      throw new ApiError('unauthorized', 'GET /metrics needs Authorization: Bearer <DOPPEL_METRICS_TOKEN>.');
    }
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

/**
 * GET /metrics in Prometheus text format. Task counts and queue depth tell anyone who reads them
 * how busy the service is, so the public API port serves them only behind DOPPEL_METRICS_TOKEN;
 * DOPPEL_METRICS_PORT serves them on a separate (by default loopback) listener instead, which
 * starts and stops with the app. With neither, /metrics is not served.
 */
export function serveMetrics(app: FastifyInstance, metrics: Metrics, where: Config['metrics']): void {
  if (where.port === undefined) {
    app.decorate('metricsServer', null);
    if (where.token !== undefined) metricsEndpoint(app, metrics.registry, where.token);
    return;
  }
  const server = Fastify({ logger: false, genReqId: newRequestId });
  // Only the token check can fail here; it answers in the API's envelope like everything else.
  server.setErrorHandler((error, request, reply) => {
    const apiError = error instanceof ApiError ? error : new ApiError('internal_error', 'An unexpected error occurred; it is safe to retry.');
    return reply.status(apiError.status).send(apiError.toEnvelope(request.id));
  });
  metricsEndpoint(server, metrics.registry, where.token);
  app.decorate('metricsServer', server);
  app.addHook('onReady', async () => {
    await server.listen({ port: where.port, host: where.host });
  });
  app.addHook('onClose', async () => {
    await server.close();
  });
}
