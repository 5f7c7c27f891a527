import type { FastifyInstance, HTTPMethods } from 'fastify';
import { ApiError } from '@doppel/core/errors';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/**
 * Records every route the app registers, so that each path can later answer its other methods
 * with 405. Must be called before any route is added.
 */
export function trackRoutes(app: FastifyInstance): Map<string, Set<string>> {
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = methodsByPath.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    methodsByPath.set(route.url, methods);
  });
  return methodsByPath;
}

/**
 * Fastify answers a known path with an unknown method as 404; the contract wants 405 with an
 * `Allow` header. Registers the missing methods of every known path as 405 routes, answered
 * before authentication and before the body is read.
 */
export function answerOtherMethodsWith405(app: FastifyInstance, methodsByPath: Map<string, Set<string>>): void {
  for (const [url, known] of [...methodsByPath]) {
    const allow = METHODS.filter((m) => known.has(m)).join(', ');
    const missing = METHODS.filter((m) => !known.has(m)) as HTTPMethods[];
    if (missing.length === 0) continue;
    app.route({
      method: missing,
      url,
      onRequest: async () => {
        throw new ApiError('method_not_allowed', `This endpoint accepts ${allow} only.`, { headers: { allow } });
      },
      handler: async () => undefined,
    });
  }
}
