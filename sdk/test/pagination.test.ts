import { afterEach, describe, expect, it } from 'vitest';
import { CursorPage, NotFoundError, type PublicSwap } from '../src';
import { clientFor } from './helpers/client';
import { swap } from './helpers/fixtures';
import { errorReply, scripted, startServer, type TestServer } from './helpers/server';

const swaps = ['s5', 's4', 's3', 's2', 's1'].map((id) => swap({ id }));
const threePages = scripted(
  { status: 200, body: { data: swaps.slice(0, 2), next_cursor: 's4' } },
  { status: 200, body: { data: swaps.slice(2, 4), next_cursor: 's2' } },
  { status: 200, body: { data: swaps.slice(4), next_cursor: null } },
);

let server: TestServer;
afterEach(() => server?.close());

describe('swaps.list()', () => {
  it('iterates every swap across pages with for await, passing each next_cursor back', async () => {
    server = await startServer(threePages);
    const seen: PublicSwap[] = [];

    for await (const item of clientFor(server).swaps.list({ limit: 2 })) seen.push(item);

    expect(seen.map((item) => item.id)).toEqual(['s5', 's4', 's3', 's2', 's1']);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/v1/swaps?limit=2',
      '/api/v1/swaps?limit=2&cursor=s4',
      '/api/v1/swaps?limit=2&cursor=s2',
    ]);
  });

  it('awaits to the first page, which can fetch the next one', async () => {
    server = await startServer(threePages);

    const first = await clientFor(server).swaps.list({ limit: 2 });
    const second = await first.getNextPage();

    expect(first).toBeInstanceOf(CursorPage);
    expect(first.data.map((item) => item.id)).toEqual(['s5', 's4']);
    expect(first.next_cursor).toBe('s4');
    expect(first.hasNextPage()).toBe(true);
    expect(second.data.map((item) => item.id)).toEqual(['s3', 's2']);
  });

  it('iterates from an awaited page onwards, and pages one by one with iterPages', async () => {
    server = await startServer(threePages);
    const first = await clientFor(server).swaps.list({ limit: 2 });

    const sizes: number[] = [];
    for await (const page of first.iterPages()) sizes.push(page.data.length);

    expect(sizes).toEqual([2, 2, 1]);
  });

  it('starts from the cursor given and stops on the last page', async () => {
    server = await startServer(scripted({ status: 200, body: { data: swaps.slice(4), next_cursor: null } }));
    const page = await clientFor(server).swaps.list({ cursor: 's2' });

    expect(server.requests[0]?.url).toBe('/api/v1/swaps?cursor=s2');
    expect(page.hasNextPage()).toBe(false);
    await expect(page.getNextPage()).rejects.toThrow(RangeError);
  });

  it('sends nothing until the list is awaited or iterated', async () => {
    server = await startServer(() => ({ status: 200, body: { data: [], next_cursor: null } }));
    const client = clientFor(server);

    const unused = client.swaps.list({ limit: 2 });
    await client.swaps.list({ limit: 1 });

    expect(unused).toBeDefined();
    expect(server.requests.map((request) => request.url)).toEqual(['/api/v1/swaps?limit=1']);
  });

  it('surfaces an error of a later page from the loop', async () => {
    server = await startServer(
      scripted({ status: 200, body: { data: swaps.slice(0, 2), next_cursor: 's4' } }, errorReply('not_found')),
    );
    const seen: string[] = [];

    const loop = async () => {
      for await (const item of clientFor(server).swaps.list({ limit: 2 })) seen.push(item.id);
    };

    await expect(loop()).rejects.toBeInstanceOf(NotFoundError);
    expect(seen).toEqual(['s5', 's4']);
  });
});
