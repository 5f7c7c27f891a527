import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFaceDetectTask } from '@doppel/core/tasks/face-detect-tasks';
import { insertSwap } from '@doppel/core/tasks/swaps';
import { faceDetectRow, swapRow } from '../support/task-rows';
import { startTestApp, type TestApp } from '../support/app';

const TOKEN = 'metrics-token-0123456789';
const scrape = (t: TestApp) => t.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });

describe('GET /metrics on the API port', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { DOPPEL_METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('is not served at all without DOPPEL_METRICS_TOKEN or DOPPEL_METRICS_PORT', async () => {
    const plain = await startTestApp();
    try {
      const response = await plain.request('/metrics');
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    } finally {
      await plain.close();
    }
  });

  it.each([
    ['no Authorization header', {}],
    ['a wrong token', { authorization: 'Bearer metrics-token-wrong-00000' }],
    ['the token without the Bearer scheme', { authorization: TOKEN }],
  ])('answers unauthorized in the envelope for %s', async (_, headers: Record<string, string>) => {
    const response = await t.request('/metrics', { headers });
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('unauthorized');
    expect(response.text).not.toContain('doppel_');
  });

  it('counts requests and their latency by route pattern and status, in Prometheus text', async () => {
    const { apiKey } = await t.createAccount();
    await t.request('/api/v1/me', { key: apiKey });
    await t.request('/api/v1/swaps/swp_missing', { key: apiKey });
    await t.request('/api/v1/me');

    const response = await scrape(t);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.text).toContain('doppel_http_requests_total{method="GET",route="/api/v1/me",status="200"} 1');
    expect(response.text).toContain('doppel_http_requests_total{method="GET",route="/api/v1/me",status="401"} 1');
    expect(response.text).toContain('doppel_http_requests_total{method="GET",route="/api/v1/swaps/:taskId",status="404"} 1');
    expect(response.text).toMatch(
      /doppel_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/v1\/me",status="200"\} 1/,
    );
    expect(response.text).not.toContain('swp_missing');
    expect(response.text).toContain('process_cpu_seconds_total');
  });
});

describe('task and queue figures in /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { DOPPEL_METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('reports tasks by type and status, and jobs waiting per queue', async () => {
    const account = await t.createAccount();
    await insertSwap(t.db, swapRow(account, { type: 'gif', status: 'failed' }));
    await insertSwap(t.db, swapRow(account, { type: 'gif', status: 'failed' }));
    await insertSwap(t.db, swapRow(account, { type: 'image', status: 'done' }));
    await insertFaceDetectTask(t.db, faceDetectRow(account, { status: 'queued' }));
    await t.services.boss.send('face-detect', { taskId: 'fdt_metrics' });

    const text = (await scrape(t)).text;
    expect(text).toContain('doppel_swaps{type="gif",status="failed"} 2');
    expect(text).toContain('doppel_swaps{type="image",status="done"} 1');
    expect(text).toContain('doppel_face_detections{status="queued"} 1');
    expect(text).toContain('doppel_queue_jobs{queue="face-detect",state="queued"} 1');
    expect(text).toContain('doppel_queue_jobs{queue="swap",state="queued"} 0');
  });

  it('reads the database once per 10 s however often it is scraped: a swap written meanwhile shows later', async () => {
    const account = await t.createAccount();
    await scrape(t);
    await insertSwap(t.db, swapRow(account, { type: 'video', status: 'done' }));
    const text = (await scrape(t)).text;
    expect(text).not.toContain('doppel_swaps{type="video",status="done"}');
  });
});

describe('GET /metrics with DOPPEL_METRICS_PORT', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { DOPPEL_METRICS_PORT: '0', DOPPEL_METRICS_HOST: '127.0.0.1' } });
  });
  afterAll(() => t.close());

  it('serves metrics on the separate port only', async () => {
    await t.request('/healthz');
    const address = t.app.metricsServer!.server.address();
    if (!address || typeof address === 'string') throw new Error('metrics server is not listening');
    expect(address.port).not.toBe(Number(new URL(t.url).port));

    const separate = await fetch(`http://127.0.0.1:${address.port}/metrics`);
    expect(separate.status).toBe(200);
    expect(await separate.text()).toContain('doppel_http_requests_total{method="GET",route="/healthz",status="200"} 1');

    const main = await t.request('/metrics');
    expect(main.status).toBe(404);
    expect(main.body.error.code).toBe('not_found');
  });

  it('stops the metrics server with the app', async () => {
    const other = await startTestApp({ env: { DOPPEL_METRICS_PORT: '0' } });
    const address = other.app.metricsServer!.server.address();
    if (!address || typeof address === 'string') throw new Error('metrics server is not listening');
    await other.close();
    await expect(fetch(`http://127.0.0.1:${address.port}/metrics`)).rejects.toThrow();
  });
});
