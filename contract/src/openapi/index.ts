import type { oas30 } from 'openapi3-ts';
import { API_PREFIX } from '../router';
import { WEBHOOK_SIGNATURE_HEADER, webhookEvents } from '../schemas/webhook';
import { headers } from './headers';
import { documentPaths, type DocumentedRouter } from './operations';
import { buildSchemaComponents } from './schema-components';
import { webhookOperation } from './webhook-operation';

export type { DocumentedRouter } from './operations';

const tags: oas30.TagObject[] = [
  { name: 'Account', description: 'The calling key and its account.' },
  { name: 'Swaps', description: 'Face-swap tasks of the calling key.' },
  { name: 'Face detection', description: 'Asynchronous detection of the faces in an image.' },
];

const BEARER = 'bearerAuth';

const description = `Face swaps from public HTTPS media URLs, as asynchronous tasks.

**Authentication.** Every request carries \`Authorization: Bearer <API_KEY>\`. Keys are secrets for server-side use only. A key sees only the tasks it created.

**Errors.** Every non-2xx response has the body \`{"error": {"code", "message", "request_id"}}\`. Branch on \`error.code\`; each response below lists the codes it can carry.

**Rate limits.** Responses to requests that reach the rate limit (every success, and the errors found after it) carry \`x-ratelimit-limit\` and \`x-ratelimit-remaining\`. Responses given before it do not: the 503 of the API switch, the 401s, the 429 of the failed-authentication throttle, and 405. A 429 carries \`Retry-After\` and \`x-ratelimit-reset\`.

**Retries.** Send an \`Idempotency-Key\` with a create so that a retry replays the first result instead of charging twice.

**Webhooks.** A swap created with \`webhook_url\` is POSTed there when it completes or fails, signed in \`${WEBHOOK_SIGNATURE_HEADER}\`: see the callback of \`createSwap\` (also under \`x-webhooks\`).`;

/**
 * The OpenAPI 3.0 description of the public v1 API, generated from the router it is given (the
 * public `contract`; routers for other clients stay out of the published document).
 */
export function buildOpenApiDocument(router: DocumentedRouter): oas30.OpenAPIObject {
  const { schemas, byShape } = buildSchemaComponents();
  return {
    openapi: '3.0.3',
    info: { title: 'Doppel', version: '1.0.0', description },
    servers: [
      { url: API_PREFIX, description: 'The server this document was fetched from.' },
      {
        url: `{origin}${API_PREFIX}`,
        description: 'A Doppel deployment at the given origin.',
        variables: { origin: { default: 'http://localhost:8080' } },
      },
    ],
    security: [{ [BEARER]: [] }],
    tags,
    paths: documentPaths(router, API_PREFIX, byShape),
    components: {
      schemas,
      headers,
      securitySchemes: {
        [BEARER]: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key, sent as `Authorization: Bearer <API_KEY>`. It also signs the webhooks of the swaps it creates.',
        },
      },
    },
    // OpenAPI 3.0 has no top-level `webhooks`; tools that read the 3.1 shape look here.
    'x-webhooks': Object.fromEntries(webhookEvents.map((event) => [event, { post: webhookOperation([event]) }])),
  };
}

/** The text of docs/openapi.json: two-space indentation and a final newline. */
export function serializeOpenApiDocument(document: oas30.OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
