import type { CreateSwapBody } from '@doppel/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBalances, ledgerTotals } from '@doppel/core/accounts/credits';
import type { Db } from '@doppel/core/db/connect';
import { dropDatabase, type TestApp } from '@doppel/server/testing/app';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { until } from '@doppel/core/testing/held-route';
import { answerStatus, redirectTo } from '@doppel/core/testing/media-server';

let world: IntakeWorld;
let t: TestApp;
let gif5s: Buffer;
let gif2s: Buffer;

async function animatedGif(frames: number, delayMs: number): Promise<Buffer> {
  const photo = await sharp(demoPhoto(1)).resize(64, 48).raw().toBuffer();
  return sharp(Buffer.concat(Array.from({ length: frames }, () => photo)), {
    raw: { width: 64, height: 48 * frames, channels: 3, pageHeight: 48 },
  })
    .gif({ delay: Array.from({ length: frames }, () => delayMs) })
    .toBuffer();
}

beforeAll(async () => {
  gif5s = await animatedGif(10, 500);
  gif2s = await animatedGif(4, 500);
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(demoPhoto(1)),
    '/group.jpg': sendBytes(demoPhoto(2)),
    '/group3.jpg': sendBytes(demoPhoto(3)),
    '/clip-5s.gif': sendBytes(gif5s),
    '/clip-2s.gif': sendBytes(gif2s),
    '/gone.jpg': answerStatus(404),
    '/to-private': redirectTo('https://intranet.example.com/x.jpg'),
    '/text.jpg': sendBytes(Buffer.from('this is not an image at all, only text pretending')),
  });
  t = await world.startApp({ scan: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
});

afterAll(async () => {
  await t?.close();
  await world?.close();
});

const imageSwap = () => ({ type: 'image', source_url: world.url('/face.jpg'), target_url: world.url('/group.jpg') });
/** A multi-face swap into the group photo, mapping each listed face to its source. */
const multiFaceSwap = (faceSwaps: Extract<CreateSwapBody, { type: 'multi_face_image' }>['face_swaps']) => ({
  type: 'multi_face_image',
  target_url: world.url('/group.jpg'),
  face_swaps: faceSwaps,
});

describe('POST /swaps', () => {
  it('creates a queued image swap, charges its price and keeps the ledger balanced', async () => {
    const account = await t.createAccount({ credits: 5 });
    const res = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { ...imageSwap(), metadata: { order: 42 }, webhook_url: 'https://hooks.media.test/doppel' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'image',
      status: 'queued',
      credit_cost: 1,
      progress: 0,
      result_url: null,
      error: null,
      metadata: { order: 42 },
      webhook_url: 'https://hooks.media.test/doppel',
    });
    expect((await getBalances(t.db, account.userId)).total).toBe(4);
    expect(await ledgerTotals(t.db, account.userId)).toEqual({ subscription: 0, monthly: 0, permanent: 4 });

    const fetched = await t.request(`/api/v1/swaps/${res.body.id}`, { key: account.apiKey });
    expect(fetched.body).toEqual(res.body);
  });

  it('echoes metadata exactly as sent: key order, nesting, NUL and lone surrogate characters', async () => {
    const account = await t.createAccount({ credits: 5 });
    const metadata = { zeta: 1, alpha: { y: [2, 'two'], b: 'nul \u0000 here' }, '': null, odd: '\ud800' };
    const res = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: { ...imageSwap(), metadata } });
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body.metadata)).toBe(JSON.stringify(metadata));
    const fetched = await t.request(`/api/v1/swaps/${res.body.id}`, { key: account.apiKey });
    expect(JSON.stringify(fetched.body.metadata)).toBe(JSON.stringify(metadata));
  });

  it('copies both inputs into storage, so the originals may disappear after the call', async () => {
    const account = await t.createAccount({ credits: 5 });
    const res = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap() });
    const row = await t.db.selectFrom('swaps').select('inputs').where('id', '=', res.body.id).executeTakeFirstOrThrow();
    const inputs = row.inputs as { target: { key: string }; sources: { key: string }[] };
    const target = await t.services.storage.get(inputs.target.key);
    const source = await t.services.storage.get(inputs.sources[0]!.key);
    expect(target.equals(demoPhoto(2))).toBe(true);
    expect(source.equals(demoPhoto(1))).toBe(true);
  });

  it('prices a multi-face swap per mapped face', async () => {
    const account = await t.createAccount({ credits: 5 });
    const res = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: multiFaceSwap([
        { face_index: 0, source_url: world.url('/face.jpg') },
        { face_index: 2, source_url: world.url('/group3.jpg'), enable_face_enhancer: true },
      ]),
    });
    expect(res.status).toBe(201);
    expect(res.body.credit_cost).toBe(2);
  });

  it('prices GIFs by their measured length: free up to 3 s, then per started 5 s', async () => {
    const account = await t.createAccount({ credits: 5 });
    const short = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'gif', source_url: world.url('/face.jpg'), target_url: world.url('/clip-2s.gif'), duration_seconds: 60 },
    });
    const long = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'gif', source_url: world.url('/face.jpg'), target_url: world.url('/clip-5s.gif') },
    });
    expect([short.status, short.body.credit_cost]).toEqual([201, 0]);
    expect([long.status, long.body.credit_cost]).toEqual([201, 1]);
  });

  describe('validation_error', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['a missing source_url for an image', { type: 'image', target_url: 'https://media.test/a.jpg' }, /source_url/],
      ['keep_audio on an image', { type: 'image', source_url: 'https://media.test/a.jpg', target_url: 'https://media.test/b.jpg', keep_audio: false }, /keep_audio/],
      ['an unknown field', { type: 'image', source_url: 'https://media.test/a.jpg', target_url: 'https://media.test/b.jpg', colour: 'red' }, /colour/],
      ['a non-HTTPS webhook_url', { type: 'image', source_url: 'https://media.test/a.jpg', target_url: 'https://media.test/b.jpg', webhook_url: 'http://hooks.media.test/' }, /webhook_url: must use https/],
      ['a data: URL', { type: 'image', source_url: 'data:image/jpeg;base64,/9j/4AAQ', target_url: 'https://media.test/b.jpg' }, /source_url: must use https/],
      ['credentials in a URL', { type: 'image', source_url: 'https://user:pw@media.test/a.jpg', target_url: 'https://media.test/b.jpg' }, /credentials/],
      ['a hex IP literal', { type: 'image', source_url: 'https://0x7f.1/a.jpg', target_url: 'https://media.test/b.jpg' }, /canonical/],
      ['multi_face_image without face_swaps', { type: 'multi_face_image', target_url: 'https://media.test/b.jpg' }, /face_swaps/],
      ['a duplicate face_index', { type: 'multi_face_image', target_url: 'https://media.test/b.jpg', face_swaps: [{ face_index: 1, source_url: 'https://media.test/a.jpg' }, { face_index: 1, source_url: 'https://media.test/c.jpg' }] }, /duplicate face_index/],
      ['video with both source_url and face_swaps', { type: 'video', target_url: 'https://media.test/v.mp4', source_url: 'https://media.test/a.jpg', face_swaps: [{ frame_time_seconds: 0, face_index: 0, source_url: 'https://media.test/a.jpg' }] }, /source_url: must be omitted/],
      ['metadata over 16 KiB', { type: 'image', source_url: 'https://media.test/a.jpg', target_url: 'https://media.test/b.jpg', metadata: { blob: 'x'.repeat(17_000) } }, /metadata/],
      ['an unknown type', { type: 'sticker', source_url: 'https://media.test/a.jpg', target_url: 'https://media.test/b.jpg' }, /type/],
    ];
    it.each(cases)('is answered for %s, naming the field', async (_name, body, message) => {
      const account = await t.createAccount({ credits: 5 });
      const res = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toMatch(message);
      expect((await getBalances(t.db, account.userId)).total).toBe(5);
    });

    it('is answered for an Idempotency-Key longer than 64 characters', async () => {
      const account = await t.createAccount({ credits: 5 });
      const res = await t.request('/api/v1/swaps', {
        method: 'POST',
        key: account.apiKey,
        json: imageSwap(),
        headers: { 'idempotency-key': 'k'.repeat(65) },
      });
      expect([res.status, res.body.error.code]).toEqual([400, 'validation_error']);
    });
  });

  it('answers unsupported_media_type for a body that is not JSON, and for a target outside the type allowlist', async () => {
    const account = await t.createAccount({ credits: 5 });
    const multipart = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      body: '--x\r\n\r\n--x--',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect([multipart.status, multipart.body.error.code]).toEqual([415, 'unsupported_media_type']);

    const gifAsImage = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'image', source_url: world.url('/face.jpg'), target_url: world.url('/clip-2s.gif') },
    });
    expect([gifAsImage.status, gifAsImage.body.error.code]).toEqual([415, 'unsupported_media_type']);
    expect(gifAsImage.body.error.message).toMatch(/target_url is image\/gif/);

    const text = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { type: 'image', source_url: world.url('/text.jpg'), target_url: world.url('/group.jpg') },
    });
    expect([text.status, text.body.error.code]).toEqual([415, 'unsupported_media_type']);
    expect((await getBalances(t.db, account.userId)).total).toBe(5);
  });

  it('answers source_unreachable naming the input, for private hosts, redirects to them, dead names and failing servers', async () => {
    const account = await t.createAccount({ credits: 5 });
    const cases = [
      { source_url: 'https://intranet.example.com/a.jpg', field: 'source_url' },
      { source_url: world.url('/to-private'), field: 'source_url' },
      { source_url: 'https://missing.example.com/a.jpg', field: 'source_url' },
      { source_url: world.url('/gone.jpg'), field: 'source_url' },
      { source_url: 'https://10.0.0.8/a.jpg', field: 'source_url' },
    ];
    for (const c of cases) {
      const res = await t.request('/api/v1/swaps', {
        method: 'POST',
        key: account.apiKey,
        json: { type: 'image', source_url: c.source_url, target_url: world.url('/group.jpg') },
      });
      expect([res.status, res.body.error.code], c.source_url).toEqual([400, 'source_unreachable']);
      expect(res.body.error.message).toMatch(new RegExp(`^${c.field} `));
      expect(res.body.error.message).not.toMatch(/10\.\d+\.\d+\.\d+/);
    }
    const hook = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { ...imageSwap(), webhook_url: 'https://intranet.example.com/hook' },
    });
    expect([hook.status, hook.body.error.code]).toEqual([400, 'source_unreachable']);
    expect(hook.body.error.message).toMatch(/^webhook_url /);
    expect((await getBalances(t.db, account.userId)).total).toBe(5);
  });

  it('answers insufficient_credits when the balance is below the price, charging nothing', async () => {
    const account = await t.createAccount({ credits: 1 });
    const res = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: multiFaceSwap([
        { face_index: 0, source_url: world.url('/face.jpg') },
        { face_index: 1, source_url: world.url('/face.jpg') },
      ]),
    });
    expect([res.status, res.body.error.code]).toEqual([402, 'insufficient_credits']);
    expect(await getBalances(t.db, account.userId)).toMatchObject({ total: 1 });
    expect(await t.db.selectFrom('swaps').select('id').where('user_id', '=', account.userId).execute()).toEqual([]);
  });
});

describe('credits under concurrency', () => {
  it('lets exactly 10 of 50 simultaneous creates through against a balance of 10', async () => {
    const app = await world.startApp({
      shareWith: t,
      env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000', DOPPEL_CONCURRENT_CREATES: '100' },
    });
    try {
      const account = await app.createAccount({ credits: 10 });
      const results = await Promise.all(
        Array.from({ length: 50 }, () => app.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap() })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(10);
      expect(statuses.filter((s) => s === 402)).toHaveLength(40);
      expect(await getBalances(app.db, account.userId)).toMatchObject({ total: 0 });
      expect(await ledgerTotals(app.db, account.userId)).toEqual({ subscription: 0, monthly: 0, permanent: 0 });
    } finally {
      await app.close();
    }
  });

  it('refuses the creates over the concurrent cap with rate_limited_concurrent', async () => {
    const account = await t.createAccount({ credits: 100 });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap() })),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 429);
    expect(created).toHaveLength(10);
    expect(refused.map((r) => r.body.error.code)).toEqual(['rate_limited_concurrent', 'rate_limited_concurrent']);
    expect((await getBalances(t.db, account.userId)).total).toBe(90);

    // Finishing one swap frees its slot.
    await t.db.updateTable('swaps').set({ status: 'done', progress: 100 }).where('id', '=', created[0]!.body.id).execute();
    const again = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap() });
    expect(again.status).toBe(201);
  });
});

describe('Idempotency-Key', () => {
  it('turns 20 concurrent identical creates into one task and one charge', async () => {
    const account = await t.createAccount({ credits: 5 });
    const headers = { 'idempotency-key': 'order-7781' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap(), headers })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect((await getBalances(t.db, account.userId)).total).toBe(4);
    const charges = await t.db.selectFrom('credit_ledger').select('amount').where('user_id', '=', account.userId).where('reason', '=', 'charge').execute();
    expect(charges).toEqual([{ amount: -1 }]);
  });

  it('refuses the same key with a different body', async () => {
    const account = await t.createAccount({ credits: 5 });
    const headers = { 'idempotency-key': 'order-7782' };
    await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap(), headers });
    const other = await t.request('/api/v1/swaps', {
      method: 'POST',
      key: account.apiKey,
      json: { ...imageSwap(), target_url: world.url('/group3.jpg') },
      headers,
    });
    expect([other.status, other.body.error.code]).toEqual([400, 'validation_error']);
    expect(other.body.error.message).toMatch(/Idempotency-Key/);
  });

  it('replays a finished create as the swap is now, on the same task and without a second charge', async () => {
    const account = await t.createAccount({ credits: 5 });
    const headers = { 'idempotency-key': 'order-7783' };
    const first = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap(), headers });
    await t.db.updateTable('swaps').set({ status: 'done', progress: 100, result_url: 'https://media.test/r.jpg' }).where('id', '=', first.body.id).execute();

    const retry = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap(), headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual({ ...first.body, status: 'done', progress: 100, result_url: 'https://media.test/r.jpg' });
    expect((await getBalances(t.db, account.userId)).total).toBe(4);
  });

  it('does not keep a rate_limited_concurrent refusal: the same key creates the swap once a slot is free', async () => {
    const account = await t.createAccount({ credits: 20 });
    const busy = await Promise.all(
      Array.from({ length: 10 }, () => t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap() })),
    );
    const headers = { 'idempotency-key': 'order-7784' };
    const refused = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap(), headers });
    expect([refused.status, refused.body.error.code, refused.headers.get('retry-after')]).toEqual([429, 'rate_limited_concurrent', '5']);

    await t.db.updateTable('swaps').set({ status: 'done', progress: 100 }).where('id', '=', busy[0]!.body.id).execute();
    const retry = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap(), headers });
    expect([retry.status, retry.body.status, retry.headers.get('idempotent-replayed')]).toEqual([201, 'queued', null]);
    expect((await getBalances(t.db, account.userId)).total).toBe(9);
  });

  it('does not keep a source_unreachable refusal, but keeps an insufficient_credits one', async () => {
    const account = await t.createAccount({ credits: 1 });
    const unreachable = { ...imageSwap(), source_url: world.url('/gone.jpg') };
    const headers = { 'idempotency-key': 'order-7785' };
    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: unreachable, headers });
      expect([res.status, res.body.error.code, res.headers.get('idempotent-replayed')]).toEqual([400, 'source_unreachable', null]);
    }

    expect((await getBalances(t.db, account.userId)).total).toBe(1);

    const broke = await t.createAccount({ credits: 0 });
    const poor = { 'idempotency-key': 'order-7786' };
    const first = await t.request('/api/v1/swaps', { method: 'POST', key: broke.apiKey, json: imageSwap(), headers: poor });
    expect([first.status, first.body.error.code]).toEqual([402, 'insufficient_credits']);
    const replayed = await t.request('/api/v1/swaps', { method: 'POST', key: broke.apiKey, json: imageSwap(), headers: poor });
    expect([replayed.status, replayed.body, replayed.headers.get('idempotent-replayed')]).toEqual([402, first.body, 'true']);
  });

  it('stores and replays a create whose metadata holds NUL and lone surrogate characters', async () => {
    const account = await t.createAccount({ credits: 5 });
    const headers = { 'idempotency-key': 'order-7787' };
    const json = { ...imageSwap(), metadata: { nul: 'a\u0000b', high: '\ud800', low: 'x\udfff' } };
    const first = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json, headers });
    expect(first.status).toBe(201);
    const replayed = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json, headers });
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    expect(JSON.stringify(replayed.body)).toBe(JSON.stringify(first.body));
    expect(JSON.stringify(first.body.metadata)).toBe(JSON.stringify(json.metadata));
    expect((await getBalances(t.db, account.userId)).total).toBe(4);
  });

  it('scopes keys per API key', async () => {
    const a = await t.createAccount({ credits: 5 });
    const b = await t.createAccount({ credits: 5 });
    const headers = { 'idempotency-key': 'shared-name' };
    const first = await t.request('/api/v1/swaps', { method: 'POST', key: a.apiKey, json: imageSwap(), headers });
    const second = await t.request('/api/v1/swaps', { method: 'POST', key: b.apiKey, json: imageSwap(), headers });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
  });
});

describe('inputs that break serialisation', () => {
  const deepArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const rawCreate = (metadataJson: string) =>
    `{"type":"image","source_url":${JSON.stringify(world.url('/face.jpg'))},"target_url":${JSON.stringify(world.url('/group.jpg'))},"metadata":{"deep":${metadataJson}}}`;

  it.each([
    ['without', {}],
    ['with', { 'idempotency-key': 'deep-1' }],
  ])('refuses metadata nested thousands of levels deep %s an Idempotency-Key, charging nothing', async (_, extra) => {
    const account = await t.createAccount({ credits: 5 });
    for (const depth of [33, 4_000, 30_000]) {
      const res = await t.request('/api/v1/swaps', {
        method: 'POST',
        key: account.apiKey,
        body: rawCreate(deepArrays(depth)),
        headers: { 'content-type': 'application/json', ...extra },
      });
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
        400,
        'validation_error',
        'metadata: must nest at most 32 levels of objects and arrays',
      ]);
    }
    expect((await getBalances(t.db, account.userId)).total).toBe(5);
  });

  it.each(['webhook_url', 'source_url'])('refuses a %s holding NUL or a lone surrogate with validation_error', async (field) => {
    const account = await t.createAccount({ credits: 5 });
    for (const bad of ['https://hooks.media.test/a\u0000b', 'https://hooks.media.test/\udc00']) {
      const res = await t.request('/api/v1/swaps', {
        method: 'POST',
        key: account.apiKey,
        json: { ...imageSwap(), [field]: bad },
        headers: { 'idempotency-key': `bad-url-${field}` },
      });
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
        400,
        'validation_error',
        `${field}: must not contain control characters or unpaired surrogates`,
      ]);
    }
  });
});

describe('a failure after the charge', () => {
  it('answers internal_error, leaves the balance unchanged and frees the Idempotency-Key', async () => {
    const account = await t.createAccount({ credits: 5 });
    const headers = { 'idempotency-key': 'retry-after-outage' };
    // The swap queue disappears: the job insert inside the charging transaction fails.
    await t.services.boss.deleteQueue('swap');
    try {
      const res = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap(), headers });
      expect([res.status, res.body.error.code]).toEqual([500, 'internal_error']);
      expect(await getBalances(t.db, account.userId)).toMatchObject({ total: 5 });
      expect(await ledgerTotals(t.db, account.userId)).toEqual({ subscription: 0, monthly: 0, permanent: 5 });
    } finally {
      await t.services.boss.createQueue('swap');
    }
    const retry = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap(), headers });
    expect(retry.status).toBe(201);
    expect((await getBalances(t.db, account.userId)).total).toBe(4);
  });
});

describe('wait=true', () => {
  /** The id of the user's swap once its create has committed, as the worker would first see it. */
  async function createdSwapId(db: Db, userId: string): Promise<string> {
    let id: string | undefined;
    await until(async () => {
      id = (await db.selectFrom('swaps').select('id').where('user_id', '=', userId).executeTakeFirst())?.id;
      return id !== undefined;
    }, 'the swap to be created');
    return id!;
  }

  /** Plays the worker: the swap is done. */
  const finish = (id: string) =>
    t.db.updateTable('swaps').set({ status: 'done', progress: 100, result_url: 'https://media.test/result.jpg' }).where('id', '=', id).execute();

  it('returns as soon as the swap reaches a terminal state, not when the budget ends', async () => {
    // A witness with the same budget, waiting since before this create on a swap that stays queued:
    // had the answer below come only when its budget ended, the witness's would have ended first.
    const witness = await t.createAccount({ credits: 5 });
    let witnessAnswered = false;
    const witnessPending = t
      .request('/api/v1/swaps?wait=true', { method: 'POST', key: witness.apiKey, json: imageSwap() })
      .finally(() => (witnessAnswered = true));
    const witnessId = await createdSwapId(t.db, witness.userId);

    const account = await t.createAccount({ credits: 5 });
    const pending = t.request('/api/v1/swaps?wait=true', { method: 'POST', key: account.apiKey, json: imageSwap() });
    const id = await createdSwapId(t.db, account.userId);
    await finish(id);
    const res = await pending;
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id, status: 'done', progress: 100 });
    expect(witnessAnswered).toBe(false);

    await finish(witnessId);
    const witnessRes = await witnessPending;
    expect([witnessRes.status, witnessRes.body.id, witnessRes.body.status]).toEqual([201, witnessId, 'done']);
  });

  it('waits on a replayed create too, answering with the terminal state', async () => {
    const account = await t.createAccount({ credits: 5 });
    const headers = { 'idempotency-key': 'dropped-connection' };
    const first = await t.request('/api/v1/swaps', { method: 'POST', key: account.apiKey, json: imageSwap(), headers });
    const pending = t.request('/api/v1/swaps?wait=true', { method: 'POST', key: account.apiKey, json: imageSwap(), headers });
    await t.db.updateTable('swaps').set({ status: 'failed', error: 'no face found in the source image' }).where('id', '=', first.body.id).execute();
    const retry = await pending;
    expect([retry.status, retry.body.id, retry.body.status, retry.headers.get('idempotent-replayed')]).toEqual([201, first.body.id, 'failed', 'true']);
  });

  it('answers 201 with the last state seen when the database fails during the wait: the swap is created and charged', async () => {
    const app = await world.startApp({ scan: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
    try {
      const account = await app.createAccount({ credits: 5 });
      const pending = app.request('/api/v1/swaps?wait=true', { method: 'POST', key: account.apiKey, json: imageSwap() });
      await createdSwapId(app.db, account.userId);
      await dropDatabase(app.database);
      const res = await pending;
      expect([res.status, res.body.status, res.body.credit_cost]).toEqual([201, 'queued', 1]);
    } finally {
      await app.close();
    }
  });

  it('answers 201 with the latest state when the budget ends first', async () => {
    const app = await world.startApp({ shareWith: t, env: { DOPPEL_WAIT_BUDGET_SECONDS: '1', DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
    try {
      const account = await app.createAccount({ credits: 5 });
      const res = await app.request('/api/v1/swaps?wait=true', { method: 'POST', key: account.apiKey, json: imageSwap() });
      expect([res.status, res.body.status]).toEqual([201, 'queued']);
    } finally {
      await app.close();
    }
  });
});
