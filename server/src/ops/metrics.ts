import Fastify, { type FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Config } from '../config';

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

function metricsEndpoint(app: FastifyInstance, registry: Registry): void {
  app.get('/metrics', async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}

/**
 * GET /metrics in Prometheus text format: on the app's own port, or, when a metrics port is
 * configured, only on a separate server that starts and stops with the app.
 */
export function serveMetrics(app: FastifyInstance, metrics: Metrics, where: Config['metrics']): void {
  if (where.port === undefined) {
    app.decorate('metricsServer', null);
    metricsEndpoint(app, metrics.registry);
    return;
  }
  const server = Fastify({ logger: false });
  metricsEndpoint(server, metrics.registry);
  app.decorate('metricsServer', server);
  app.addHook('onReady', async () => {
    await server.listen({ port: where.port, host: where.host });
  });
  app.addHook('onClose', async () => {
    await server.close();
  });
}
