import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../src';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  ContentRejectedError,
  DoppelError,
  InsufficientCreditsError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
  UnavailableError,
  ValidationError,
} from '../src';
import { clientFor } from './helpers/client';
import { imageSwap } from './helpers/fixtures';
import { errorReply, scripted, startServer, type TestServer } from './helpers/server';

/** Spec section 7, one row per code: the status it comes with and the class callers catch. */
const specTable: [ErrorCode, number, new (...args: never[]) => APIError][] = [
  ['unauthorized', 401, AuthenticationError],
  ['invalid_api_key', 401, AuthenticationError],
  ['validation_error', 400, ValidationError],
  ['source_unreachable', 400, ValidationError],
  ['unsupported_media_type', 415, ValidationError],
  ['payload_too_large', 413, ValidationError],
  ['nsfw_content_detected', 422, ContentRejectedError],
  ['insufficient_credits', 402, InsufficientCreditsError],
  ['rate_limited', 429, RateLimitError],
  ['rate_limited_daily', 429, RateLimitError],
  ['rate_limited_concurrent', 429, RateLimitError],
  ['not_found', 404, NotFoundError],
  ['method_not_allowed', 405, APIError],
  ['api_temporarily_disabled', 503, UnavailableError],
  ['internal_error', 500, InternalServerError],
];

let server: TestServer;
afterEach(() => server?.close());

describe('API errors', () => {
  it.each(specTable)('%s (%i) is thrown as %O with code, status and request id', async (code, status, ErrorClass) => {
    server = await startServer(scripted(errorReply(code, {}, `req_${code}_1`)));

    const error: unknown = await clientFor(server, { maxRetries: 0 }).swaps.create(imageSwap).catch((e) => e);

    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(DoppelError);
    expect(error).toMatchObject({ code, status, requestId: `req_${code}_1`, message: `message for ${code}` });
    expect((error as APIError).headers.get('content-type')).toMatch(/json/);
  });

  it('reads the wait the server asked for into retryAfterSeconds', async () => {
    server = await startServer(scripted(errorReply('rate_limited', { 'retry-after': '30' })));

    const error = await clientFor(server, { maxRetries: 0 }).me().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterSeconds).toBe(30);
  });

  it('classifies a response without the error envelope by its status', async () => {
    server = await startServer(
      scripted({ status: 502, body: '<html>Bad gateway</html>' }, { status: 429, body: { message: 'slow down' } }),
    );
    const client = clientFor(server, { maxRetries: 0 });

    const gateway = await client.me().catch((e: unknown) => e);
    const tooMany = await client.me().catch((e: unknown) => e);

    expect(gateway).toBeInstanceOf(InternalServerError);
    expect(gateway).toMatchObject({ status: 502, code: null, requestId: null, body: '<html>Bad gateway</html>' });
    expect((gateway as Error).message).toContain('Bad gateway');
    expect(tooMany).toBeInstanceOf(RateLimitError);
    expect(tooMany).toMatchObject({ status: 429, code: null });
  });

  it('throws APIConnectionError when nothing listens', async () => {
    server = await startServer(scripted());
    const client = clientFor(server, { maxRetries: 0 });
    await server.close();

    const error = await client.me().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APIError);
    expect((error as Error).cause).toBeDefined();
  });

  it('throws APITimeoutError when no response arrives within timeoutMs', async () => {
    server = await startServer(scripted('hang'));

    const error = await clientFor(server, { maxRetries: 0, timeoutMs: 50 }).me().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  it('rejects a malformed task id before sending anything', async () => {
    server = await startServer(scripted());
    const client = clientFor(server);

    await expect(client.swaps.retrieve('../me')).rejects.toThrow(DoppelError);
    await expect(client.swaps.cancel('')).rejects.toThrow(/Invalid task id/);
    await expect(client.faceDetect.retrieve('a'.repeat(65))).rejects.toThrow(/Invalid task id/);
    expect(server.requests).toHaveLength(0);
  });
});
