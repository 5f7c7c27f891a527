import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSwap } from '@doppel/core/tasks/swaps';
import { startTestApp, type TestAccount, type TestApp } from '../support/app';
import { swapRow } from '../support/task-rows';

let t: TestApp;
let owner: TestAccount;
let stranger: TestAccount;
/** The owner's swap ids, newest first, as the database orders them. */
let expectedOrder: string[];

const SHARED_INSTANT = '2026-02-01 12:00:00.654321+00';

beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '10000' } });
  owner = await t.createAccount();
  stranger = await t.createAccount();
  // 60 swaps share one timestamp to the microsecond; a few sit one microsecond either side of
  // it, where a cursor rounded to milliseconds would skip or repeat them; some are older.
  const created = [
    ...Array.from({ length: 60 }, () => SHARED_INSTANT),
    '2026-02-01 12:00:00.654322+00',
    '2026-02-01 12:00:00.654320+00',
    '2026-02-01 12:00:00.654320+00',
    '2026-01-15 08:30:00+00',
    '2025-12-31 23:59:59.999999+00',
  ];
  for (const at of created) {
    const row = await insertSwap(t.db, swapRow(owner));
    await sql`update swaps set created_at = ${at}::timestamptz where id = ${row.id}`.execute(t.db);
  }
  for (let i = 0; i < 5; i++) await insertSwap(t.db, swapRow(stranger));
  const rows = await t.db
    .selectFrom('swaps')
    .select('id')
    .where('api_key_id', '=', owner.apiKeyId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  expectedOrder = rows.map((r) => r.id);
});
afterAll(() => t.close());

async function walk(limit: number | undefined): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query = new URLSearchParams();
    if (limit !== undefined) query.set('limit', String(limit));
    if (cursor) query.set('cursor', cursor);
    const response = await t.request(`/api/v1/swaps?${query}`, { key: owner.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.data.length).toBeLessThanOrEqual(limit ?? 25);
    ids.push(...response.body.data.map((s: { id: string }) => s.id));
    cursor = response.body.next_cursor;
    if (cursor) expect(cursor).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    pages++;
  } while (cursor);
  return { ids, pages };
}

describe('GET /swaps', () => {
  it.each([1, 2, 7, 25, 64, 65, 100])(
    'walks every swap exactly once, newest first then by id, in pages of %i',
    async (limit) => {
      const { ids, pages } = await walk(limit);
      expect(ids).toEqual(expectedOrder);
      // A full last page already says next_cursor: null; no empty page follows it.
      expect(pages).toBe(Math.ceil(expectedOrder.length / limit));
    },
  );

  it('pages by 25 when no limit is given', async () => {
    const first = await t.request('/api/v1/swaps', { key: owner.apiKey });
    expect(first.body.data).toHaveLength(25);
    expect((await walk(undefined)).ids).toEqual(expectedOrder);
  });

  it('ends with a null next_cursor', async () => {
    const response = await t.request('/api/v1/swaps?limit=100', { key: owner.apiKey });
    expect(response.body.data).toHaveLength(expectedOrder.length);
    expect(response.body.next_cursor).toBeNull();
  });

  it('lists only the swaps of the calling key', async () => {
    const response = await t.request('/api/v1/swaps?limit=100', { key: stranger.apiKey });
    expect(response.body.data).toHaveLength(5);
    expect(response.body.data.every((s: { id: string }) => !expectedOrder.includes(s.id))).toBe(true);
  });

  it("lists nothing after another key's cursor", async () => {
    const page = await t.request('/api/v1/swaps?limit=2', { key: owner.apiKey });
    const response = await t.request(`/api/v1/swaps?cursor=${page.body.next_cursor}`, { key: stranger.apiKey });
    expect(response.status).toBe(200);
    expect(response.body.data.every((s: { id: string }) => !expectedOrder.includes(s.id))).toBe(true);
  });

  it('returns an empty first page for a key without swaps', async () => {
    const fresh = await t.createAccount();
    const response = await t.request('/api/v1/swaps', { key: fresh.apiKey });
    expect(response.body).toEqual({ data: [], next_cursor: null });
  });
});
