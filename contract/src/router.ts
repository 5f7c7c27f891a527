import { initContract } from '@ts-rest/core';
import { ErrorEnvelopeSchema } from './errors';
import { AccountSnapshotSchema } from './schemas/account';
import {
  CreateFaceDetectBodySchema,
  FaceDetectCreatedSchema,
  FaceDetectTaskSchema,
} from './schemas/face-detect';
import type { RouteDocs } from './route-docs';
import { createFaceDetectExamples, createSwapExamples, exampleQueuedSwap } from './route-examples';
import { TaskIdParamsSchema } from './schemas/ids';
import {
  CreateSwapBodySchema,
  CreateSwapHeadersSchema,
  CreateSwapQuerySchema,
  ListSwapsQuerySchema,
  PublicSwapSchema,
  SwapListPageSchema,
} from './schemas/swaps';

const c = initContract();

export const API_PREFIX = '/api/v1';

/** Errors any endpoint can return (spec section 4, "Common errors"). */
const commonErrors = {
  401: ErrorEnvelopeSchema,
  429: ErrorEnvelopeSchema,
  500: ErrorEnvelopeSchema,
  503: ErrorEnvelopeSchema,
} as const;

const lookupErrors = { ...commonErrors, 400: ErrorEnvelopeSchema, 404: ErrorEnvelopeSchema } as const;

/** Errors of a JSON-body create (spec 4.3 and 4.6). */
const createErrors = {
  ...commonErrors,
  400: ErrorEnvelopeSchema,
  413: ErrorEnvelopeSchema,
  415: ErrorEnvelopeSchema,
} as const;

export const contract = c.router(
  {
    me: {
      method: 'GET',
      path: '/me',
      responses: { 200: AccountSnapshotSchema, 405: ErrorEnvelopeSchema, ...commonErrors },
      summary: 'The calling account',
      description: 'Credit balances and the live rate-limit state of the calling key. Costs 0 credits.',
      metadata: { tag: 'Account', success: 'The account snapshot.' } satisfies RouteDocs,
    },
    listSwaps: {
      method: 'GET',
      path: '/swaps',
      query: ListSwapsQuerySchema,
      responses: { 200: SwapListPageSchema, 400: ErrorEnvelopeSchema, ...commonErrors },
      summary: 'List swaps',
      description:
        'Swaps created by the calling key, newest first (created time, then id, descending). Costs 0 credits.',
      metadata: { tag: 'Swaps', success: 'One page of swaps, newest first.' } satisfies RouteDocs,
    },
    createSwap: {
      method: 'POST',
      path: '/swaps',
      query: CreateSwapQuerySchema,
      headers: CreateSwapHeadersSchema,
      body: CreateSwapBodySchema,
      responses: {
        201: PublicSwapSchema,
        402: ErrorEnvelopeSchema,
        422: ErrorEnvelopeSchema,
        ...createErrors,
      },
      summary: 'Create a swap',
      description:
        'Fetches both media URLs through the address guard, scans and stores them, charges credits and queues the swap.',
      metadata: {
        tag: 'Swaps',
        success: 'The swap was created and queued; with `wait=true`, its latest state when the wait ended.',
        successExample: exampleQueuedSwap,
        requestExamples: createSwapExamples,
        routeSpecificErrors: ['rate_limited_concurrent', 'source_unreachable'],
        webhookCallback: true,
      } satisfies RouteDocs,
    },
    getSwap: {
      method: 'GET',
      path: '/swaps/:taskId',
      pathParams: TaskIdParamsSchema,
      responses: { 200: PublicSwapSchema, ...lookupErrors },
      summary: 'Retrieve a swap',
      description: 'A swap of the calling key. Foreign, missing and cleaned-up ids all answer not_found.',
      metadata: { tag: 'Swaps', success: 'The swap.' } satisfies RouteDocs,
    },
    cancelSwap: {
      method: 'DELETE',
      path: '/swaps/:taskId',
      pathParams: TaskIdParamsSchema,
      body: c.noBody(),
      responses: { 200: PublicSwapSchema, ...lookupErrors },
      summary: 'Cancel a swap',
      description:
        'Cancels a queued or preparing swap; a processing or finished swap is returned unchanged. Always 200, never 409.',
      metadata: {
        tag: 'Swaps',
        success: 'The swap after the attempted cancel (unchanged when it was no longer cancelable).',
      } satisfies RouteDocs,
    },
    createFaceDetect: {
      method: 'POST',
      path: '/face-detect',
      body: CreateFaceDetectBodySchema,
      responses: { 202: FaceDetectCreatedSchema, ...createErrors },
      summary: 'Detect faces',
      description: 'Queues an asynchronous face detection on an image. Costs 0 credits.',
      metadata: {
        tag: 'Face detection',
        success: 'The face detection was queued; poll `poll_url`.',
        requestExamples: createFaceDetectExamples,
        routeSpecificErrors: ['source_unreachable'],
      } satisfies RouteDocs,
    },
    getFaceDetect: {
      method: 'GET',
      path: '/face-detect/:taskId',
      pathParams: TaskIdParamsSchema,
      responses: { 200: FaceDetectTaskSchema, ...lookupErrors },
      summary: 'Retrieve a face detection',
      description: 'A face-detection task of the calling key.',
      metadata: { tag: 'Face detection', success: 'The face-detection task.' } satisfies RouteDocs,
    },
  },
  { pathPrefix: API_PREFIX, strictStatusCodes: true },
);

export type Contract = typeof contract;
export type Route = Contract[keyof Contract];
export const routeNames = Object.keys(contract) as (keyof Contract)[];
