import { afterEach, describe, expect, it } from 'vitest';
import { APITimeoutError, InternalServerError, RateLimitError, UnavailableError, ValidationError } from '../src';
import { clientFor, numberedAttempts } from './helpers/client';
import { fakeClock } from './helpers/clock';
import { swap, imageSwap } from './helpers/fixtures';
import { byAttempt, errorReply, scripted, startServer, type TestServer } from './helpers/server';

const created = { status: 201, body: swap() };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let server: TestServer;
afterEach(() => server?.close());

describe('retries', () => {
  it('waits the Retry-After seconds of a 429 before retrying', async () => {
    server = await startServer(scripted(errorReply('rate_limited', { 'retry-after': '2' }), created));
    const clock = fakeClock();

    await expect(clientFor(server, { clock }).swaps.create(imageSwap)).resolves.toEqual(swap());

    expect(server.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([2000]);
  });

  it('accepts Retry-After as an HTTP date', async () => {
    const clock = fakeClock();
    const in3s = new Date(clock.now() + 3000).toUTCString();
    server = await startServer(scripted(errorReply('api_temporarily_disabled', { 'retry-after': in3s }), created));

    await clientFor(server, { clock }).swaps.create(imageSwap);

    expect(clock.sleeps).toEqual([3000]);
  });

  it('waits until the epoch second in x-ratelimit-reset when there is no Retry-After', async () => {
    const clock = fakeClock();
    const reset = String(clock.now() / 1000 + 7);
    server = await startServer(scripted(errorReply('rate_limited', { 'x-ratelimit-reset': reset }), created));

    await clientFor(server, { clock }).swaps.create(imageSwap);

    expect(clock.sleeps).toEqual([7000]);
  });

  it('retries 503 and 500 with exponential backoff, under one idempotency key', async () => {
    server = await startServer(scripted(errorReply('api_temporarily_disabled'), errorReply('internal_error'), created));
    const clock = fakeClock();

    await clientFor(server, { clock }).swaps.create(imageSwap);

    const keys = server.requests.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID);
    expect(new Set(keys).size).toBe(1);
    // 500 ms then 1000 ms, each shortened by up to 25 % of jitter.
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(375);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(500);
    expect(clock.sleeps[1]).toBeGreaterThanOrEqual(750);
    expect(clock.sleeps[1]).toBeLessThanOrEqual(1000);
  });

  it('generates a fresh key for each logical create', async () => {
    server = await startServer(scripted(created, created));
    const client = clientFor(server, { clock: fakeClock() });

    await client.swaps.create(imageSwap);
    await client.swaps.create(imageSwap);

    const [first, second] = server.requests.map((request) => request.headers['idempotency-key']);
    expect(first).not.toBe(second);
  });

  it("sends the caller's idempotency key on every attempt", async () => {
    server = await startServer(scripted(errorReply('internal_error'), created));

    await clientFor(server, { clock: fakeClock() }).swaps.create(imageSwap, { idempotencyKey: 'order-42' });

    expect(server.requests.map((request) => request.headers['idempotency-key'])).toEqual(['order-42', 'order-42']);
  });

  it('sends no idempotency key when retries are off and the caller gave none', async () => {
    server = await startServer(scripted(created));

    await clientFor(server, { maxRetries: 0 }).swaps.create(imageSwap);

    expect(server.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('gives up after maxRetries and throws the last error', async () => {
    server = await startServer(
      scripted(errorReply('internal_error'), errorReply('internal_error'), errorReply('internal_error', {}, 'req_last')),
    );

    const error = await clientFor(server, { clock: fakeClock() }).swaps.create(imageSwap).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ requestId: 'req_last' });
    expect(server.requests).toHaveLength(3);
  });

  it.each(['validation_error', 'source_unreachable', 'unsupported_media_type', 'payload_too_large'] as const)(
    'never retries %s',
    async (code) => {
      server = await startServer(scripted(errorReply(code), created));
      const clock = fakeClock();

      await expect(clientFor(server, { clock }).swaps.create(imageSwap)).rejects.toBeInstanceOf(ValidationError);

      expect(server.requests).toHaveLength(1);
      expect(clock.sleeps).toEqual([]);
    },
  );

  it('does not retry rate_limited_daily: the cap only resets at 00:00 UTC', async () => {
    server = await startServer(scripted(errorReply('rate_limited_daily', { 'retry-after': '3600' }), created));

    const error = await clientFor(server, { clock: fakeClock() }).me().catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'rate_limited_daily', retryAfterSeconds: 3600 });
    expect(server.requests).toHaveLength(1);
  });

  it('hands a wait longer than maxServerDelayMs back to the caller instead of sleeping', async () => {
    server = await startServer(scripted(errorReply('api_temporarily_disabled', { 'retry-after': '120' }), created));

    const error = await clientFor(server, { clock: fakeClock() }).me().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({ retryAfterSeconds: 120 });
    expect(server.requests).toHaveLength(1);
  });

  it('retries a dropped connection and a timed-out attempt', async () => {
    // The second attempt is never answered, so it times out however slow the machine, even if
    // the client gives up on it before it reaches the server: the server answers by attempt
    // number, not by arrival. The timeout is far above a loopback reply, which the other two
    // attempts get.
    server = await startServer(byAttempt('drop', 'hang', created));
    const attempts = numberedAttempts();

    const result = await clientFor(server, { clock: fakeClock(), fetch: attempts.fetch, timeoutMs: 1_000 }).swaps.create(imageSwap);

    expect(result).toEqual(swap());
    expect(attempts.outcomes).toEqual([expect.any(TypeError), expect.any(APITimeoutError), 201]);
    expect(attempts.outcomes[1]).toMatchObject({ message: 'Request timed out after 1000 ms' });
    // Every attempt that reached the server carried the same key.
    expect(new Set(server.requests.map((request) => request.headers['idempotency-key'])).size).toBe(1);
  });

  it('lets a call override maxRetries and timeoutMs', async () => {
    // The first attempt is never answered, so whichever timeout applies runs out, however slow
    // the machine; its message names the one that did. A retry would be answered, after a sleep.
    server = await startServer(scripted('hang', created));
    const clock = fakeClock();

    const error = await clientFor(server, { clock, maxRetries: 2, timeoutMs: 1_000 })
      .me({ maxRetries: 0, timeoutMs: 50 })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APITimeoutError);
    expect((error as APITimeoutError).message).toBe('Request timed out after 50 ms');
    expect(clock.sleeps).toEqual([]);
  });

  it("stops at once when the caller's signal aborts, rejecting with its reason", async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    server = await startServer((_request, index) => {
      controller.abort(reason);
      return index === 0 ? errorReply('internal_error') : created;
    });

    await expect(
      clientFor(server, { clock: fakeClock() }).swaps.create(imageSwap, { signal: controller.signal }),
    ).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a bare rate limit using backoff', async () => {
    server = await startServer(scripted(errorReply('rate_limited_concurrent'), created));
    const clock = fakeClock();

    await clientFor(server, { clock, retryDelay: { initialMs: 10 } }).swaps.create(imageSwap);

    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(10);
    expect(server.requests).toHaveLength(2);
  });

  it('throws RateLimitError once retries are spent on 429s', async () => {
    server = await startServer(scripted(...Array(3).fill(errorReply('rate_limited', { 'retry-after': '1' }))));
    const clock = fakeClock();

    await expect(clientFor(server, { clock }).me()).rejects.toBeInstanceOf(RateLimitError);

    expect(clock.sleeps).toEqual([1000, 1000]);
  });
});
