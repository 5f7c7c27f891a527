import type { ErrorCode } from './errors';

/**
 * What a route's OpenAPI operation shows beyond its zod schemas, kept on the route itself as
 * ts-rest `metadata` so a new route cannot be added without it.
 */
export interface RouteDocs {
  readonly tag: 'Account' | 'Swaps' | 'Face detection';
  /** Description of the success response. */
  readonly success: string;
  /** Example of the success body, where it differs from its schema's example. */
  readonly successExample?: unknown;
  /** Examples of the request body, by name. */
  readonly requestExamples?: Readonly<Record<string, { readonly summary: string; readonly value: unknown }>>;
  /** Of the codes only some routes produce (see the OpenAPI generator), those this one does. */
  readonly routeSpecificErrors?: readonly ErrorCode[];
  /** The created task is delivered to its `webhook_url` when it ends. */
  readonly webhookCallback?: boolean;
}
