import { afterEach, describe, expect, it } from 'vitest';
import { WaitTimeoutError, type PublicSwap } from '../src';
import { clientFor } from './helpers/client';
import { fakeClock } from './helpers/clock';
import { imageSwap, swap } from './helpers/fixtures';
import { scripted, startServer, type TestServer } from './helpers/server';

const queued = swap({ id: 'swp_9' });
const processing = swap({ id: 'swp_9', status: 'processing', progress: 40 });
const done = swap({ id: 'swp_9', status: 'done', progress: 100, result_url: 'https://cdn.example.com/r.jpg' });

let server: TestServer;
afterEach(() => server?.close());

describe('swaps', () => {
  it('create posts the params as JSON to /api/v1/swaps and returns the queued swap', async () => {
    server = await startServer(scripted({ status: 201, body: queued }));
    const params = { ...imageSwap, metadata: { order: 42 }, webhook_url: 'https://hooks.example.com/doppel' };

    await expect(clientFor(server).swaps.create(params)).resolves.toEqual(queued);

    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/api/v1/swaps' });
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(request?.body ?? '')).toEqual(params);
  });

  it('create with wait: true long-polls through ?wait=true', async () => {
    server = await startServer(scripted({ status: 201, body: done }));

    await expect(clientFor(server).swaps.create(imageSwap, { wait: true })).resolves.toEqual(done);

    expect(server.requests[0]?.url).toBe('/api/v1/swaps?wait=true');
  });

  it('retrieve and cancel address the swap by id', async () => {
    const canceled = swap({ id: 'swp_9', status: 'canceled' });
    server = await startServer(scripted({ status: 200, body: queued }, { status: 200, body: canceled }));
    const client = clientFor(server);

    await expect(client.swaps.retrieve('swp_9')).resolves.toEqual(queued);
    await expect(client.swaps.cancel('swp_9')).resolves.toEqual(canceled);

    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/v1/swaps/swp_9',
      'DELETE /api/v1/swaps/swp_9',
    ]);
  });
});

describe('swaps.waitFor()', () => {
  it('polls every 5 s until the swap is terminal, reporting each snapshot', async () => {
    server = await startServer(
      scripted({ status: 200, body: queued }, { status: 200, body: processing }, { status: 200, body: done }),
    );
    const clock = fakeClock();
    const progress: PublicSwap[] = [];

    const result = await clientFor(server, { clock }).swaps.waitFor('swp_9', { onProgress: (s) => progress.push(s) });

    expect(result).toEqual(done);
    expect(progress.map((s) => s.status)).toEqual(['queued', 'processing', 'done']);
    expect(clock.sleeps).toEqual([5000, 5000]);
    expect(server.requests.every((r) => r.url === '/api/v1/swaps/swp_9')).toBe(true);
  });

  it('returns a failed swap rather than throwing: the outcome is in status and error', async () => {
    const failed = swap({ id: 'swp_9', status: 'failed', error: 'no face found in source' });
    server = await startServer(scripted({ status: 200, body: failed }));

    await expect(clientFor(server).swaps.waitFor('swp_9')).resolves.toEqual(failed);
  });

  it('gives up after 2 minutes by default with WaitTimeoutError carrying the last snapshot', async () => {
    server = await startServer(() => ({ status: 200, body: processing }));
    const clock = fakeClock();

    const error = await clientFor(server, { clock }).swaps.waitFor('swp_9').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError<PublicSwap>).lastSnapshot).toEqual(processing);
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(120_000);
    expect(server.requests).toHaveLength(25);
  });

  it('honours custom intervalMs and timeoutMs, polling once more at the deadline', async () => {
    server = await startServer(() => ({ status: 200, body: processing }));
    const clock = fakeClock();

    await expect(
      clientFor(server, { clock }).swaps.waitFor('swp_9', { intervalMs: 400, timeoutMs: 1000 }),
    ).rejects.toBeInstanceOf(WaitTimeoutError);

    expect(clock.sleeps).toEqual([400, 400, 200]);
    expect(server.requests).toHaveLength(4);
  });

  it("stops when the caller's signal aborts, rejecting with its reason", async () => {
    server = await startServer(() => ({ status: 200, body: processing }));
    const controller = new AbortController();
    const reason = new Error('user left');
    let polls = 0;

    const waiting = clientFor(server, { clock: fakeClock() }).swaps.waitFor('swp_9', {
      signal: controller.signal,
      onProgress: () => {
        if (++polls === 2) controller.abort(reason);
      },
    });

    await expect(waiting).rejects.toBe(reason);
    expect(server.requests).toHaveLength(2);
  });

  it('rejects at once with a signal that is already aborted', async () => {
    server = await startServer(() => ({ status: 200, body: processing }));

    await expect(clientFor(server).swaps.waitFor('swp_9', { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('waits for real time with the system clock', async () => {
    server = await startServer(scripted({ status: 200, body: queued }, { status: 200, body: done }));

    await expect(clientFor(server).swaps.waitFor('swp_9', { intervalMs: 10 })).resolves.toEqual(done);
  });
});

describe('swaps.createAndWait()', () => {
  it('creates, then polls the new swap until it is terminal', async () => {
    server = await startServer(
      scripted({ status: 201, body: queued }, { status: 200, body: processing }, { status: 200, body: done }),
    );
    const clock = fakeClock();

    const result = await clientFor(server, { clock }).swaps.createAndWait(imageSwap, { idempotencyKey: 'k-1' });

    expect(result).toEqual(done);
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/swaps',
      'GET /api/v1/swaps/swp_9',
      'GET /api/v1/swaps/swp_9',
    ]);
    expect(server.requests[0]?.headers['idempotency-key']).toBe('k-1');
    expect(clock.sleeps).toEqual([5000]);
  });
});
