import { generateSchema } from '@anatine/zod-openapi';
import { generateOpenApi } from '@ts-rest/open-api';
import type { oas30 } from 'openapi3-ts';
import stringify from 'safe-stable-stringify';
import type { ZodTypeAny } from 'zod';
import { type ErrorCode, type ErrorEnvelope, type ErrorStatus, ErrorEnvelopeSchema, errorCodes, errorStatusByCode } from './errors';
import { API_PREFIX, type Contract, contract } from './router';
import { type AccountSnapshot, AccountSnapshotSchema } from './schemas/account';
import {
  CreateFaceDetectBodySchema,
  type FaceDetectTask,
  FaceDetectCreatedSchema,
  FaceDetectTaskSchema,
} from './schemas/face-detect';
import {
  type CreateSwapBody,
  CreateSwapBodySchema,
  type PublicSwap,
  PublicSwapSchema,
  type SwapListPage,
  SwapListPageSchema,
} from './schemas/swaps';
import {
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookEventType,
  type WebhookPayload,
  WebhookPayloadSchema,
  webhookEvents,
} from './schemas/webhook';
import { WEBHOOK_SIGNATURE_PATTERN } from './webhook-signature';

type RouteName = keyof Contract;
type SchemaObject = oas30.SchemaObject;

// ---------------------------------------------------------------------------------------------
// What the generated document cannot know from the zod schemas alone.
// ---------------------------------------------------------------------------------------------

/** Meaning of each code (spec section 7), shown in every error response that can carry it. */
const errorMeaning = {
  unauthorized: 'The Authorization header is missing or not `Bearer <API_KEY>`.',
  invalid_api_key: 'The key matches no live key (unknown or revoked).',
  validation_error: 'The body, query or a path parameter fails validation.',
  source_unreachable: 'A media URL resolves to a non-public address, DNS fails, or it cannot be fetched.',
  unsupported_media_type:
    'Content-Type is not application/json, or fetched media is outside the allowed types or cannot be decoded (damaged or incomplete).',
  payload_too_large: 'The body or fetched media exceeds its byte cap.',
  nsfw_content_detected: 'An input was flagged by the content analyser. Terminal: use other inputs.',
  insufficient_credits: 'The balance is below the cost. Top up, then retry with a fresh Idempotency-Key.',
  rate_limited: 'The per-minute budget is spent, or this client address has failed authentication too often this minute (then even a correct key is refused). Wait `Retry-After` seconds.',
  rate_limited_daily: 'The daily cap is spent. It resets at 00:00 UTC.',
  rate_limited_concurrent: 'Too many creates of this key are in flight. Wait for one to finish.',
  not_found: 'The task is missing, cleaned up, or owned by another key.',
  method_not_allowed: 'The endpoint does not support this method.',
  api_temporarily_disabled: 'The API is switched off, content checks are unfinished, or a request with the same Idempotency-Key is still in flight (`Retry-After: 5`). Honour `Retry-After`.',
  internal_error: 'A side effect failed; credits and the idempotency claim were rolled back. Safe to retry.',
} as const satisfies Record<ErrorCode, string>;

/**
 * Codes that only some operations can produce. Every other code is listed wherever a route
 * declares its status, so a status shared by several codes (429, 400) is not over-promised.
 */
const codeOnlyOn: Partial<Record<ErrorCode, readonly RouteName[]>> = {
  rate_limited_concurrent: ['createSwap'],
  source_unreachable: ['createSwap', 'createFaceDetect'],
};

const reasonPhrase = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
} as const satisfies Record<ErrorStatus, string>;

const successDescription = {
  me: 'The account snapshot.',
  listSwaps: 'One page of swaps, newest first.',
  createSwap: 'The swap was created and queued; with `wait=true`, its latest state when the wait ended.',
  getSwap: 'The swap.',
  cancelSwap: 'The swap after the attempted cancel (unchanged when it was no longer cancelable).',
  createFaceDetect: 'The face detection was queued; poll `poll_url`.',
  getFaceDetect: 'The face-detection task.',
} as const satisfies Record<RouteName, string>;

const tagOf = {
  me: 'Account',
  listSwaps: 'Swaps',
  createSwap: 'Swaps',
  getSwap: 'Swaps',
  cancelSwap: 'Swaps',
  createFaceDetect: 'Face detection',
  getFaceDetect: 'Face detection',
} as const satisfies Record<RouteName, string>;

const tags: oas30.TagObject[] = [
  { name: 'Account', description: 'The calling key and its account.' },
  { name: 'Swaps', description: 'Face-swap tasks of the calling key.' },
  { name: 'Face detection', description: 'Asynchronous detection of the faces in an image.' },
];

const headers: Record<string, oas30.HeaderObject> = {
  'x-request-id': {
    description: 'Identifier of this request; equals `error.request_id` on errors. Quote it when escalating.',
    schema: { type: 'string' },
  },
  'x-ratelimit-limit': {
    description: 'Requests the calling key may make per sliding minute. Absent on responses given before the rate limit (see the API description).',
    schema: { type: 'integer', minimum: 0 },
  },
  'x-ratelimit-remaining': {
    description: 'Requests left in the current window. Absent on responses given before the rate limit (see the API description).',
    schema: { type: 'integer', minimum: 0 },
  },
  'x-ratelimit-reset': {
    description: 'Unix time (seconds) at which the exhausted limit frees up again.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
  },
};

const everyResponseHeaders = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining'];
const extraHeadersByStatus: Partial<Record<number, string[]>> = {
  429: ['Retry-After', 'x-ratelimit-reset'],
  503: ['Retry-After'],
};

const BEARER = 'bearerAuth';

// ---------------------------------------------------------------------------------------------
// Examples. Typed with the contract's own types, and the tests parse each with its schema.
// ---------------------------------------------------------------------------------------------

const exampleSwap: PublicSwap = {
  id: 'swp_3q9XcM7vTf2LkR8bNw1YzA',
  type: 'image',
  status: 'done',
  credit_cost: 1,
  progress: 100,
  created_at: '2025-01-15T10:30:00.000Z',
  result_url: 'https://media.example.com/results/Jd8fK2mQz7LwX0vB4nRt1c/swp_3q9XcM7vTf2LkR8bNw1YzA.jpg',
  error: null,
  metadata: { order_id: '1042' },
  webhook_url: 'https://hooks.example.com/doppel',
};

const exampleQueuedSwap: PublicSwap = { ...exampleSwap, status: 'queued', progress: 0, result_url: null };

/** Where an operation's success differs from its schema's example: a create answers a queued swap. */
const successExamples: Partial<Record<RouteName, unknown>> = { createSwap: exampleQueuedSwap };

const exampleListPage: SwapListPage = { data: [exampleSwap], next_cursor: exampleSwap.id };

const exampleAccount: AccountSnapshot = {
  user_id: 'usr_Jx2mQ8rT4vWb6nKp0sLd9A',
  email_verified: true,
  subscription_tier: 'pro',
  credits: { permanent: 120, monthly: 300, subscription: 0, total: 420 },
  rate_limit: { limit: 60, window_seconds: 60, remaining: 59 },
};

const exampleFaceDetectTask: FaceDetectTask = {
  task_id: 'fdt_Pz7kW1xN5cR3tY9bM2qL6g',
  status: 'done',
  faces_detected: 2,
  faces: [
    { index: 0, bounding_box: { x: 412, y: 188, width: 164, height: 210 } },
    { index: 1, bounding_box: { x: 760, y: 230, width: 150, height: 196 } },
  ],
  error: null,
  created_at: '2025-01-15T10:31:00.000Z',
  completed_at: '2025-01-15T10:31:02.000Z',
};

const exampleFaceDetectCreated = {
  task_id: exampleFaceDetectTask.task_id,
  status: 'queued',
  poll_url: `${API_PREFIX}/face-detect/${exampleFaceDetectTask.task_id}`,
  note: 'Poll poll_url until status is done or failed.',
};

const createSwapExamples: Record<string, { summary: string; value: CreateSwapBody }> = {
  image: {
    summary: 'Image swap',
    value: {
      type: 'image',
      source_url: 'https://media.example.com/faces/alice.jpg',
      target_url: 'https://media.example.com/targets/poster.jpg',
      webhook_url: 'https://hooks.example.com/doppel',
      metadata: { order_id: '1042' },
    },
  },
  multi_face_image: {
    summary: 'Two faces in one image',
    value: {
      type: 'multi_face_image',
      target_url: 'https://media.example.com/targets/team.jpg',
      face_swaps: [
        { face_index: 0, source_url: 'https://media.example.com/faces/alice.jpg' },
        { face_index: 1, source_url: 'https://media.example.com/faces/bob.jpg', enable_face_enhancer: true },
      ],
    },
  },
  gif: {
    summary: 'GIF swap',
    value: {
      type: 'gif',
      source_url: 'https://media.example.com/faces/alice.jpg',
      target_url: 'https://media.example.com/targets/dance.gif',
      reference_frame_time_seconds: 0.5,
    },
  },
  video: {
    summary: 'Video swap, two faces',
    value: {
      type: 'video',
      target_url: 'https://media.example.com/targets/clip.mp4',
      keep_audio: true,
      face_swaps: [
        { frame_time_seconds: 1.2, face_index: 0, source_url: 'https://media.example.com/faces/alice.jpg' },
        { frame_time_seconds: 1.2, face_index: 1, source_url: 'https://media.example.com/faces/bob.jpg' },
      ],
    },
  },
};

const webhookExamples: Record<WebhookEventType, { summary: string; value: WebhookPayload }> = {
  'swap.completed': { summary: 'A swap finished', value: { event: 'swap.completed', ...exampleSwap } },
  'swap.failed': {
    summary: 'A swap failed',
    value: {
      event: 'swap.failed',
      ...exampleSwap,
      status: 'failed',
      progress: 40,
      result_url: null,
      error: 'No face was found in the source image.',
    },
  },
};

function errorExample(code: ErrorCode): ErrorEnvelope {
  return { error: { code, message: errorMeaning[code], request_id: 'req_Vb3kQ9xM2pLt7RwN' } };
}

// ---------------------------------------------------------------------------------------------
// Components: the main shapes, generated from the contract's zod schemas.
// ---------------------------------------------------------------------------------------------

/** Responses and webhooks are what the server emits (output); bodies are what it accepts (input). */
const namedSchemas: Record<string, { schema: ZodTypeAny; io: 'input' | 'output'; example?: unknown }> = {
  AccountSnapshot: { schema: AccountSnapshotSchema, io: 'output', example: exampleAccount },
  CreateFaceDetectBody: { schema: CreateFaceDetectBodySchema, io: 'input' },
  CreateSwapBody: { schema: CreateSwapBodySchema, io: 'input' },
  ErrorEnvelope: { schema: ErrorEnvelopeSchema, io: 'output', example: errorExample('not_found') },
  FaceDetectCreated: { schema: FaceDetectCreatedSchema, io: 'output', example: exampleFaceDetectCreated },
  FaceDetectTask: { schema: FaceDetectTaskSchema, io: 'output', example: exampleFaceDetectTask },
  PublicSwap: { schema: PublicSwapSchema, io: 'output', example: exampleSwap },
  SwapListPage: { schema: SwapListPageSchema, io: 'output', example: exampleListPage },
  WebhookPayload: { schema: WebhookPayloadSchema, io: 'output', example: webhookExamples['swap.completed'].value },
};

const schemaRef = (name: string): oas30.ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

/** JSON with sorted keys, so two generated schemas compare equal whatever their key order. */
const canonicalJson = (value: unknown): string => stringify(value) ?? '';

/**
 * Replaces every inline copy of a named schema with a `$ref` to it. The copies come from the same
 * generator as the named schema, so structural equality identifies them exactly.
 */
function withRefs(node: unknown, byShape: Map<string, string>, skipRoot = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withRefs(item, byShape));
  if (!node || typeof node !== 'object') return node;
  const name = skipRoot ? undefined : byShape.get(canonicalJson(node));
  if (name) return schemaRef(name);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withRefs(value, byShape)]));
}

/**
 * The zod converter writes `exclusiveMinimum: 0` (JSON Schema 2019+, OpenAPI 3.1); OpenAPI 3.0
 * wants `minimum: 0, exclusiveMinimum: true`. Same for the maximum.
 */
function oas30Bounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(oas30Bounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, oas30Bounds(value)]),
  );
  for (const [exclusive, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] === 'number') {
      out[inclusive] = out[exclusive];
      out[exclusive] = true;
    }
  }
  return out;
}

const schemaWithRefs = (schema: SchemaObject | oas30.ReferenceObject | undefined, byShape: Map<string, string>) =>
  withRefs(oas30Bounds(schema), byShape) as SchemaObject | oas30.ReferenceObject;

const pascalCase = (text: string) => text.replace(/(^|_)([a-z])/g, (_m, _sep, letter: string) => letter.toUpperCase());

/**
 * The create-body union's members become components of their own (ImageSwapBody, ...) so the
 * discriminator can map each `type` to one; OpenAPI 3.0 tools only render mappings to `$ref`s.
 */
function unionMembers(union: SchemaObject): { type: string; name: string; schema: SchemaObject }[] {
  return (union.oneOf ?? []).map((member) => {
    const schema = member as SchemaObject;
    const type = (schema.properties?.type as SchemaObject).enum?.[0] as string;
    return { type, name: `${pascalCase(type)}SwapBody`, schema };
  });
}

interface Components {
  schemas: Record<string, SchemaObject>;
  byShape: Map<string, string>;
}

function buildSchemaComponents(): Components {
  const raw: Record<string, SchemaObject> = {};
  for (const [name, { schema, io }] of Object.entries(namedSchemas)) {
    raw[name] = oas30Bounds(generateSchema(schema, io === 'output')) as SchemaObject;
  }
  const members = unionMembers(raw.CreateSwapBody as SchemaObject);
  for (const member of members) raw[member.name] = member.schema;

  const byShape = new Map(Object.entries(raw).map(([name, schema]) => [canonicalJson(schema), name]));
  const schemas: Record<string, SchemaObject> = {};
  for (const name of Object.keys(raw).sort()) {
    const published = withRefs(raw[name], byShape, true) as SchemaObject;
    const example = namedSchemas[name]?.example;
    schemas[name] = example === undefined ? published : { ...published, example };
  }
  schemas.CreateSwapBody = {
    ...schemas.CreateSwapBody,
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(members.map(({ type, name }) => [type, schemaRef(name).$ref])),
    },
  };
  return { schemas, byShape };
}

// ---------------------------------------------------------------------------------------------
// Operations.
// ---------------------------------------------------------------------------------------------

/** Codes a route can answer with at an error status it declares. */
function errorCodesFor(route: RouteName, status: number): ErrorCode[] {
  const codes = errorCodes.filter(
    (code) => errorStatusByCode[code] === status && (codeOnlyOn[code]?.includes(route) ?? true),
  );
  if (codes.length === 0) throw new Error(`${route} declares status ${status}, which no error code uses`);
  return codes;
}

function errorResponse(route: RouteName, status: ErrorStatus): oas30.ResponseObject {
  const codes = errorCodesFor(route, status);
  const list = codes.map((code) => `- \`${code}\`: ${errorMeaning[code]}`).join('\n');
  return {
    description: `${reasonPhrase[status]}. \`error.code\` is one of:\n\n${list}`,
    headers: headerRefs([...everyResponseHeaders, ...(extraHeadersByStatus[status] ?? [])]),
    content: {
      'application/json': {
        schema: schemaRef('ErrorEnvelope'),
        examples: Object.fromEntries(codes.map((code) => [code, { summary: code, value: errorExample(code) }])),
      },
    },
  };
}

const isErrorStatus = (status: number): status is ErrorStatus => Object.hasOwn(reasonPhrase, status);

function documentResponses(route: RouteName, generated: oas30.ResponsesObject, byShape: Map<string, string>) {
  return Object.fromEntries(
    Object.entries(generated).map(([key, response]: [string, oas30.ResponseObject]) => {
      const status = Number(key);
      if (isErrorStatus(status)) return [key, errorResponse(route, status)];
      const media = response.content?.['application/json'];
      const example = successExamples[route];
      return [
        key,
        {
          description: successDescription[route],
          headers: headerRefs(everyResponseHeaders),
          ...(media && {
            content: {
              'application/json': {
                schema: schemaWithRefs(media.schema, byShape),
                ...(example !== undefined && { example }),
              },
            },
          }),
        },
      ];
    }),
  );
}

/** `idempotency-key` -> `Idempotency-Key`: header names are case-insensitive; docs use the usual spelling. */
const headerSpelling = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());

/** ts-rest leaves a header's or query's description inside its schema; tools show it from the parameter. */
function documentParameter(parameter: oas30.ParameterObject): oas30.ParameterObject {
  const { description: schemaDescription, ...schema } = (parameter.schema ?? {}) as SchemaObject;
  const description = parameter.description ?? schemaDescription;
  return {
    name: parameter.in === 'header' ? headerSpelling(parameter.name) : parameter.name,
    in: parameter.in,
    ...(description && { description }),
    ...(parameter.required && { required: true }),
    schema,
  };
}

const CALLBACK_URL = '{$request.body#/webhook_url}';

function webhookOperation(events: readonly WebhookEventType[]): oas30.OperationObject {
  return {
    summary: events.length === 1 ? `Webhook: ${events[0]}` : 'Swap webhook',
    description: [
      'POSTed to the `webhook_url` given at create when the swap reaches `done` (`swap.completed`) or `failed` (`swap.failed`).',
      `Verify \`${WEBHOOK_SIGNATURE_HEADER}\` before trusting the body: HMAC-SHA256 keyed with the API key that created the swap, over \`<t>.<raw body>\` (the raw bytes, never re-serialised JSON), lower-case hex; reject a \`t\` more than ${WEBHOOK_TOLERANCE_SECONDS} seconds from your clock, and compare in constant time.`,
      `Any non-2xx answer is retried, so receivers must be idempotent: de-duplicate on \`${WEBHOOK_EVENT_ID_HEADER}\`.`,
    ].join('\n\n'),
    // Deliveries are authenticated by their signature, not by a bearer key.
    security: [],
    parameters: [
      {
        name: WEBHOOK_SIGNATURE_HEADER,
        in: 'header',
        required: true,
        description: '`t=<unix-seconds>,v1=<hex HMAC-SHA256>`; the receiver answers 401 when it does not verify.',
        schema: { type: 'string', pattern: WEBHOOK_SIGNATURE_PATTERN.source },
        example: 't=1736937000,v1=9f2c4e6a8b0d1f3e5a7c9b1d3f5e7a9c0b2d4f6e8a0c2e4b6d8f0a2c4e6b8d0f',
      },
      {
        name: WEBHOOK_EVENT_ID_HEADER,
        in: 'header',
        required: true,
        description: 'Identifier of the event; the same on every attempt.',
        schema: { type: 'string' },
      },
      {
        name: WEBHOOK_ATTEMPT_HEADER,
        in: 'header',
        required: true,
        description: '1 for the first attempt, then 2, 3, ...',
        schema: { type: 'integer', minimum: 1 },
      },
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: schemaRef('WebhookPayload'),
          examples: Object.fromEntries(events.map((event) => [event, webhookExamples[event]])),
        },
      },
    },
    responses: {
      200: { description: 'Delivery accepted. Any 2xx counts as success.' },
      401: { description: 'The signature did not verify. The delivery is retried.' },
    },
  };
}

const requestExamples: Partial<Record<RouteName, oas30.ExamplesObject>> = {
  createSwap: createSwapExamples,
  createFaceDetect: {
    image: { summary: 'Detect faces', value: { target_url: 'https://media.example.com/targets/team.jpg' } },
  },
};

const callbacksOf: Partial<Record<RouteName, oas30.CallbacksObject>> = {
  createSwap: { swapWebhook: { [CALLBACK_URL]: { post: webhookOperation(webhookEvents) } } },
};

function documentOperation(generated: oas30.OperationObject, byShape: Map<string, string>): oas30.OperationObject {
  const route = generated.operationId as RouteName;
  if (!Object.hasOwn(contract, route)) throw new Error(`OpenAPI operation ${route} is not a contract route`);
  const body = (generated.requestBody as oas30.RequestBodyObject | undefined)?.content['application/json'];
  const examples = requestExamples[route];
  const callbacks = callbacksOf[route];
  return {
    operationId: route,
    summary: generated.summary,
    description: generated.description,
    tags: [tagOf[route]],
    parameters: (generated.parameters as oas30.ParameterObject[]).map(documentParameter),
    ...(body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: schemaWithRefs(body.schema, byShape), ...(examples && { examples }) } },
      },
    }),
    responses: documentResponses(route, generated.responses, byShape),
    ...(callbacks && { callbacks }),
  };
}

function documentPaths(byShape: Map<string, string>): oas30.PathsObject {
  const generated = generateOpenApi(contract, { info: { title: '', version: '' } }, { setOperationId: true });
  return Object.fromEntries(
    Object.entries(generated.paths).map(([path, item]: [string, Record<string, oas30.OperationObject>]) => [
      // Paths are relative to the server URL, which carries the version prefix (spec section 9).
      path.slice(API_PREFIX.length),
      Object.fromEntries(Object.entries(item).map(([method, op]) => [method, documentOperation(op, byShape)])),
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// The document.
// ---------------------------------------------------------------------------------------------

const description = `Face swaps from public HTTPS media URLs, as asynchronous tasks.

**Authentication.** Every request carries \`Authorization: Bearer <API_KEY>\`. Keys are secrets for server-side use only. A key sees only the tasks it created.

**Errors.** Every non-2xx response has the body \`{"error": {"code", "message", "request_id"}}\`. Branch on \`error.code\`; each response below lists the codes it can carry.

**Rate limits.** Responses to requests that reach the rate limit (every success, and the errors found after it) carry \`x-ratelimit-limit\` and \`x-ratelimit-remaining\`. Responses given before it do not: the 503 of the API switch, the 401s, the 429 of the failed-authentication throttle, and 405. A 429 carries \`Retry-After\` and \`x-ratelimit-reset\`.

**Retries.** Send an \`Idempotency-Key\` with a create so that a retry replays the first result instead of charging twice.

**Webhooks.** A swap created with \`webhook_url\` is POSTed there when it completes or fails, signed in \`${WEBHOOK_SIGNATURE_HEADER}\`: see the callback of \`createSwap\` (also under \`x-webhooks\`).`;

/** The OpenAPI 3.0 description of the v1 API, generated from the contract. */
export function buildOpenApiDocument(): oas30.OpenAPIObject {
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
    paths: documentPaths(byShape),
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
