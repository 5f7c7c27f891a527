import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { DASHBOARD_API_PREFIX, DASHBOARD_PATH } from '@doppel/contract/dashboard';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DashboardApiError, notFound } from './errors';

/** Where `pnpm --filter @doppel/dashboard build` writes the app. */
const DASHBOARD_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dashboard/dist');

/**
 * Only our own files: no inline script or style, no framing, images from us (thumbnails) and
 * data: URLs only, requests to this origin only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Security headers on every dashboard response, pages, assets and API alike. */
export function sendSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    // Session answers carry the CSRF token and a new key its secret: never kept by a cache.
    if (request.url.startsWith(`${DASHBOARD_API_PREFIX}/`) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
  });
}

/**
 * The built single-page app: hashed assets cached forever, every other page path answered
 * with index.html so links into the app (invite links included) load it.
 */
export async function serveDashboardApp(app: FastifyInstance): Promise<void> {
  const built = existsSync(path.join(DASHBOARD_DIST, 'index.html'));
  await app.register(fastifyStatic, { root: DASHBOARD_DIST, serve: false });
  app.get(`${DASHBOARD_PATH}/assets/*`, (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    return reply.sendFile(`assets/${file}`, { immutable: true, maxAge: '365d' });
  });
  app.get(`${DASHBOARD_PATH}/favicon.svg`, (_request, reply) => reply.sendFile('favicon.svg', { maxAge: '1d' }));
  const page = async (request: { url: string }, reply: FastifyReply) => {
    if (request.url.startsWith(`${DASHBOARD_API_PREFIX}/`)) throw notFound('endpoint');
    if (!built) throw new DashboardApiError('not_found', 'The dashboard is not built: run pnpm build.');
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };
  app.get(DASHBOARD_PATH, page);
  app.get(`${DASHBOARD_PATH}/*`, page);
}
