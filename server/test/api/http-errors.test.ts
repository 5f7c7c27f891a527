import { contract } from '@doppel/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestAccount, type TestApp, type TestResponse } from '../support/app';

const LIMIT = 2048;
let t: TestApp;
let account: TestAccount;
beforeAll(async () => {
  t = await startTestApp({ env: { DOPPEL_BODY_LIMIT_BYTES: String(LIMIT), DOPPEL_RATE_LIMIT_PER_MINUTE: '10000' } });
  account = await t.createAccount();
});
afterAll(() => t.close());

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const SOME_ID = 'swp_doesNotExist0000000';

/** Every documented path with its methods, as a caller writes them (path params filled in). */
const documented = new Map<string, string[]>();
for (const route of Object.values(contract)) {
  const path = route.path.replace(':taskId', SOME_ID);
  documented.set(path, [...(documented.get(path) ?? []), route.method]);
}
for (const path of ['/healthz', '/readyz', '/api/v1/openapi.json', '/docs']) documented.set(path, ['GET']);

function expectEnvelope(response: TestResponse, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({
    error: { code, message: expect.any(String), request_id: response.headers.get('x-request-id') },
  });
}

describe('request ids', () => {
  it('gives every response a fresh unguessable x-request-id, also errors and 404s', async () => {
    const responses = await Promise.all([
      t.request('/healthz'),
      t.request('/api/v1/me'),
      t.request('/no/such/path'),
      t.request('/api/v1/me', { key: account.apiKey }),
    ]);
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('ignores an x-request-id sent by the client', async () => {
    const response = await t.request('/api/v1/me', { headers: { 'x-request-id': 'req_chosen-by-caller' } });
    expect(response.headers.get('x-request-id')).not.toBe('req_chosen-by-caller');
    expect(response.body.error.request_id).toBe(response.headers.get('x-request-id'));
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/nope'],
    ['GET', '/api/v2/me'],
    ['GET', '/api/v1/swaps/a/b'],
    ['DELETE', '/api/v1/face-detect/a/b'],
  ])('answers not_found for %s %s', async (method, path) => {
    expectEnvelope(await t.request(path, { method, key: account.apiKey }), 404, 'not_found');
  });

  it('answers not_found before reading a body of the wrong type', async () => {
    const response = await t.request('/api/v1/nope', {
      method: 'POST',
      body: 'x'.repeat(LIMIT * 2),
      headers: { 'content-type': 'text/plain' },
    });
    expectEnvelope(response, 404, 'not_found');
  });
});

describe('method_not_allowed', () => {
  const cases = [...documented].flatMap(([path, allowed]) =>
    METHODS.filter((m) => !allowed.includes(m)).map((method) => ({ path, method, allowed })),
  );

  it.each(cases)('answers $method $path with 405 and Allow', async ({ path, method, allowed }) => {
    const response = await t.request(path, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(METHODS.filter((m) => allowed.includes(m)).join(', '));
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    if (method !== 'HEAD') expectEnvelope(response, 405, 'method_not_allowed');
  });

  it('answers 405 before authentication and before reading the body', async () => {
    const response = await t.request('/api/v1/me', {
      method: 'POST',
      body: 'x'.repeat(LIMIT * 2),
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expectEnvelope(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('request bodies', () => {
  const withBody = [
    { method: 'POST', path: '/api/v1/swaps' },
    { method: 'POST', path: '/api/v1/face-detect' },
    { method: 'DELETE', path: `/api/v1/swaps/${SOME_ID}` },
  ];
  const wrongTypes = [
    ['multipart', { 'content-type': 'multipart/form-data; boundary=b' }, '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--'],
    ['form', { 'content-type': 'application/x-www-form-urlencoded' }, 'type=image&target_url=https%3A%2F%2Fexample.com'],
    ['text', { 'content-type': 'text/plain' }, '{"type":"image"}'],
    ['json-like', { 'content-type': 'application/jsonp' }, '{"type":"image"}'],
  ] as const;

  describe.each(withBody)('$method $path', ({ method, path }) => {
    it.each(wrongTypes)('refuses a %s body with unsupported_media_type', async (_name, headers, body) => {
      const response = await t.request(path, { method, key: account.apiKey, headers: { ...headers }, body });
      expectEnvelope(response, 415, 'unsupported_media_type');
    });

    it('refuses a body without Content-Type with unsupported_media_type', async () => {
      const response = await t.request(path, { method, key: account.apiKey, body: new TextEncoder().encode('{}') });
      expectEnvelope(response, 415, 'unsupported_media_type');
    });

    if (method === 'POST') {
      it('refuses an empty request without Content-Type with unsupported_media_type', async () => {
        const response = await t.request(path, { method, key: account.apiKey });
        expectEnvelope(response, 415, 'unsupported_media_type');
      });
    }

    it('refuses a JSON body over the configured limit with payload_too_large', async () => {
      const response = await t.request(path, { method, key: account.apiKey, json: { pad: 'x'.repeat(LIMIT) } });
      expectEnvelope(response, 413, 'payload_too_large');
      expect(response.body.error.message).toContain(String(LIMIT));
    });

    it('refuses malformed JSON with validation_error', async () => {
      const response = await t.request(path, {
        method,
        key: account.apiKey,
        body: '{"type": "image",',
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(response, 400, 'validation_error');
    });

    it('refuses JSON with a poisoned prototype with validation_error', async () => {
      const response = await t.request(path, {
        method,
        key: account.apiKey,
        body: '{"__proto__": {"admin": true}}',
        headers: { 'content-type': 'application/json' },
      });
      expectEnvelope(response, 400, 'validation_error');
    });
  });

  it('accepts application/json with a charset parameter', async () => {
    const response = await t.request('/api/v1/face-detect', {
      method: 'POST',
      key: account.apiKey,
      body: JSON.stringify({ target_url: 'http://example.com/a.jpg' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expectEnvelope(response, 400, 'validation_error');
    expect(response.body.error.message).toBe('target_url: must use https');
  });

  it('needs no Content-Type on a DELETE without a body', async () => {
    const response = await t.request(`/api/v1/swaps/${SOME_ID}`, { method: 'DELETE', key: account.apiKey });
    expectEnvelope(response, 404, 'not_found');
  });
});

describe('validation_error', () => {
  it.each([
    ['/api/v1/swaps?limit=101', 'limit: Number must be less than or equal to 100'],
    ['/api/v1/swaps?limit=0', 'limit: Number must be greater than or equal to 1'],
    ['/api/v1/swaps?limit=2.5', 'limit: Expected integer, received float'],
    ['/api/v1/swaps?limit=ten', 'limit: Expected number, received nan'],
    ['/api/v1/swaps?cursor=not%20a%20cursor', 'cursor: must match [A-Za-z0-9_-]{1,64}'],
    [`/api/v1/swaps?cursor=${'a'.repeat(65)}`, 'cursor: must match [A-Za-z0-9_-]{1,64}'],
    ['/api/v1/swaps?cursor=abc', 'cursor: is not a next_cursor returned by GET /swaps'],
    [`/api/v1/swaps?cursor=${Buffer.from('\0\0\0\0\0\0\0\0bad.id').toString('base64url')}`, 'cursor: is not a next_cursor returned by GET /swaps'],
    ['/api/v1/swaps/has.dot', 'taskId: must match [A-Za-z0-9_-]{1,64}'],
    [`/api/v1/swaps/${'a'.repeat(65)}`, 'taskId: must match [A-Za-z0-9_-]{1,64}'],
    [`/api/v1/swaps/${'a'.repeat(101)}`, 'taskId: must match [A-Za-z0-9_-]{1,64}'],
    [`/api/v1/face-detect/${'a'.repeat(8000)}`, 'taskId: must match [A-Za-z0-9_-]{1,64}'],
    ['/api/v1/face-detect/has%20space', 'taskId: must match [A-Za-z0-9_-]{1,64}'],
  ])('answers GET %s naming the field', async (path, message) => {
    const response = await t.request(path, { key: account.apiKey });
    expectEnvelope(response, 400, 'validation_error');
    expect(response.body.error.message).toBe(message);
  });

  it.each(['/api/v1/swaps/%zz', '/api/v1/face-detect/%E0%A4%A', '/api/v1/%zz/x'])(
    'answers a path that is not validly percent-encoded (%s) in the envelope',
    async (path) => {
      const response = await t.request(path, { key: account.apiKey });
      expectEnvelope(response, 400, 'validation_error');
      expect(response.body.error.message).toBe('The URL path is not validly percent-encoded.');
    },
  );

  it('answers a bad task id on DELETE with validation_error', async () => {
    const response = await t.request('/api/v1/swaps/bad$id', { method: 'DELETE', key: account.apiKey });
    expectEnvelope(response, 400, 'validation_error');
    expect(response.body.error.message).toBe('taskId: must match [A-Za-z0-9_-]{1,64}');
  });

  it('names every failing body field', async () => {
    const response = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { extra: 1 } });
    expectEnvelope(response, 400, 'validation_error');
    expect(response.body.error.message).toMatch(/^target_url: Required; .*extra/);
  });

  it('answers an empty JSON body with validation_error', async () => {
    const response = await t.request('/api/v1/face-detect', {
      method: 'POST',
      key: account.apiKey,
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(response, 400, 'validation_error');
  });
});
