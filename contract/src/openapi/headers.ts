import type { oas30 } from 'openapi3-ts';

/** The response headers, published once as components and referred to from each response. */
export const headers: Record<string, oas30.HeaderObject> = {
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

export const everyResponseHeaders = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining'];
export const extraHeadersByStatus: Partial<Record<number, string[]>> = {
  429: ['Retry-After', 'x-ratelimit-reset'],
  503: ['Retry-After'],
};
