import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { API_PREFIX, contract } from '@doppel/contract';
import { buildOpenApiDocument, serializeOpenApiDocument } from '@doppel/contract/openapi';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const OPENAPI_JSON_PATH = `${API_PREFIX}/openapi.json`;
const DOCS_PATH = '/docs';
const ASSETS_PATH = `${DOCS_PATH}/assets`;

/** The only swagger-ui-dist files served; every other name under /docs/assets is a 404. */
const swaggerUiFiles = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

/** Our own start-up script: a file rather than inline so the page's CSP can forbid inline scripts. */
const INIT_SCRIPT = 'doppel-docs.js';
const initScript = `window.ui = SwaggerUIBundle(${JSON.stringify({
  url: OPENAPI_JSON_PATH,
  dom_id: '#swagger-ui',
  deepLinking: true,
  // The default posts the document to validator.swagger.io; the page must not call out.
  validatorUrl: null,
})});\n`;

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Doppel API reference</title>
<link rel="icon" type="image/png" href="${ASSETS_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">
<link rel="stylesheet" href="${ASSETS_PATH}/index.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${ASSETS_PATH}/${INIT_SCRIPT}"></script>
</body>
</html>
`;

/**
 * Scripts only from this server. Swagger UI styles elements inline and draws icons from data:
 * URIs. Requests made with "Try it out" may target any server the document lists.
 */
const pageSecurityPolicy = [
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Resource {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

// Asset names are not content-hashed, so caches keep them a day and revalidate by ETag after.
const ASSET_CACHE = 'public, max-age=86400';
// The page and the document change with a deploy: always revalidate.
const REVALIDATE = 'no-cache';

function resource(content: Buffer | string, type: string, cacheControl: string): Resource {
  const body = Buffer.isBuffer(content) ? content : Buffer.from(content);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, type, etag, cacheControl };
}

function isFresh(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

function send(request: FastifyRequest, reply: FastifyReply, served: Resource): FastifyReply {
  reply.header('cache-control', served.cacheControl).header('etag', served.etag).header('x-content-type-options', 'nosniff');
  if (isFresh(request, served.etag)) return reply.code(304).send();
  return reply.type(served.type).send(served.body);
}

async function loadAssets(): Promise<Map<string, Resource>> {
  const folder = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const assets = new Map<string, Resource>();
  for (const [name, type] of Object.entries(swaggerUiFiles)) {
    assets.set(name, resource(await readFile(path.join(folder, name)), type, ASSET_CACHE));
  }
  assets.set(INIT_SCRIPT, resource(initScript, 'text/javascript; charset=utf-8', ASSET_CACHE));
  return assets;
}

/**
 * The OpenAPI document at /api/v1/openapi.json and a Swagger UI reference page at /docs, both
 * public. Everything the page loads comes from this server (swagger-ui-dist), never a CDN.
 */
export async function apiDocsPlugin(app: FastifyInstance): Promise<void> {
  const document = resource(
    serializeOpenApiDocument(buildOpenApiDocument(contract)),
    'application/json; charset=utf-8',
    REVALIDATE,
  );
  const html = resource(page, 'text/html; charset=utf-8', REVALIDATE);
  const assets = await loadAssets();

  app.get(OPENAPI_JSON_PATH, async (request, reply) => send(request, reply, document));

  app.get(DOCS_PATH, async (request, reply) => {
    reply.header('content-security-policy', pageSecurityPolicy);
    return send(request, reply, html);
  });

  app.get<{ Params: { name: string } }>(`${ASSETS_PATH}/:name`, async (request, reply) => {
    // Exact names from the allow-list only: no path is ever built from the request.
    const asset = assets.get(request.params.name);
    if (!asset) {
      reply.callNotFound();
      return reply;
    }
    return send(request, reply, asset);
  });
}
