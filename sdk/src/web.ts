/**
 * Entry point for runtimes without node:crypto (`@doppel/sdk/web`): the whole client, and
 * webhook verification on Web Crypto. The Node entry re-exports all of it.
 */
export { Doppel, type DoppelOptions } from './client';
export type { RequestOptions } from './internal/contract-client';
export type { Clock } from './internal/clock';
export type { RetryDelayOptions } from './internal/retry';
export {
  DoppelError,
  APIError,
  AuthenticationError,
  ValidationError,
  NotFoundError,
  InsufficientCreditsError,
  ContentRejectedError,
  RateLimitError,
  UnavailableError,
  InternalServerError,
  APIConnectionError,
  APITimeoutError,
  WaitTimeoutError,
  errorClassByCode,
  type APIErrorInit,
} from './core/errors';
export { CursorPage, PagePromise, type CursorPageBody } from './core/pagination';
export type { WaitOptions } from './core/polling';
export type {
  Swaps,
  SwapCreateOptions,
  SwapCreateAndWaitOptions,
  SwapListParams,
  SwapWaitOptions,
} from './resources/swaps';
export type {
  FaceDetect,
  FaceDetectCreateParams,
  FaceDetectCreated,
  FaceDetectWaitOptions,
} from './resources/face-detect';
export { verifyWebhookAsync } from './webhooks/web-crypto';
export { WebhookVerificationError, type WebhookVerificationFailure } from './webhooks/errors';
export type { RawBody, VerifyWebhookOptions } from './webhooks/verification';
export {
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_ATTEMPT_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  type AccountSnapshot,
  type CreateSwapBody,
  type DetectedFace,
  type ErrorCode,
  type ErrorEnvelope,
  type FaceDetectStatus,
  type FaceDetectTask,
  type PublicSwap,
  type SwapListPage,
  type SwapStatus,
  type SwapType,
  type WebhookEventType,
  type WebhookPayload,
} from '@doppel/contract';
