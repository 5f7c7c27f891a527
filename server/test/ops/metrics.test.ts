import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFaceDetectTask } from '../../src/tasks/face-detect-tasks';
import { insertSwap } from '../../src/tasks/swaps';
import { faceDetectRow, swapRow } from '../api/task-rows';
import { startTestApp, type TestApp } from '../support/app';

describe('GET /metrics on the main port', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('counts requests and their latency by route pattern and status, in Prometheus text', async () => {
    const { apiKey } = await t.createAccount();
    await t.request('/api/v1/me', { key: apiKey });
    await t.request('/api/v1/swaps/swp_missing', { key: apiKey });
    await t.request('/api/v1/me');

    const response = await t.request('/metrics');
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

  it('reports tasks by type and status, and jobs waiting per queue', async () => {
    const account = await t.createAccount();
    await insertSwap(t.db, swapRow(account, { type: 'gif', status: 'failed' }));
    await insertSwap(t.db, swapRow(account, { type: 'gif', status: 'failed' }));
    await insertSwap(t.db, swapRow(account, { type: 'image', status: 'done' }));
    await insertFaceDetectTask(t.db, faceDetectRow(account, { status: 'queued' }));
    await t.services.boss.send('face-detect', { taskId: 'fdt_metrics' });

    const text = (await t.request('/metrics')).text;
    expect(text).toContain('doppel_swaps{type="gif",status="failed"} 2');
    expect(text).toContain('doppel_swaps{type="image",status="done"} 1');
    expect(text).toContain('doppel_face_detections{status="queued"} 1');
    expect(text).toContain('doppel_queue_jobs{queue="face-detect",state="queued"} 1');
    expect(text).toContain('doppel_queue_jobs{queue="swap",state="queued"} 0');
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
