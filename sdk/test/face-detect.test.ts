import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../src';
import { clientFor } from './helpers/client';
import { fakeClock } from './helpers/clock';
import { faceDetectTask } from './helpers/fixtures';
import { errorReply, scripted, startServer, type TestServer } from './helpers/server';

const accepted = { task_id: 'fd_1', status: 'queued', poll_url: '/api/v1/face-detect/fd_1', note: 'poll the url' };
const found = faceDetectTask({
  status: 'done',
  faces_detected: 1,
  faces: [{ index: 0, bounding_box: { x: 10, y: 20, width: 100, height: 120 } }],
  completed_at: '2025-01-01T00:00:03.000Z',
});

let server: TestServer;
afterEach(() => server?.close());

describe('faceDetect', () => {
  it('create posts target_url and returns the 202 acknowledgement', async () => {
    server = await startServer(scripted({ status: 202, body: accepted }));

    await expect(clientFor(server).faceDetect.create({ target_url: 'https://m.example.com/a.jpg' })).resolves.toEqual(
      accepted,
    );

    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/api/v1/face-detect' });
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ target_url: 'https://m.example.com/a.jpg' });
  });

  it('create surfaces source_unreachable as a ValidationError', async () => {
    server = await startServer(scripted(errorReply('source_unreachable')));

    await expect(
      clientFor(server).faceDetect.create({ target_url: 'https://10.0.0.1/a.jpg' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('retrieve returns the task; waitFor polls until done', async () => {
    server = await startServer(
      scripted(
        { status: 200, body: faceDetectTask() },
        { status: 200, body: faceDetectTask({ status: 'processing' }) },
        { status: 200, body: found },
      ),
    );
    const client = clientFor(server, { clock: fakeClock() });

    await expect(client.faceDetect.retrieve('fd_1')).resolves.toEqual(faceDetectTask());
    await expect(client.faceDetect.waitFor('fd_1')).resolves.toEqual(found);

    expect(server.requests.every((r) => r.method === 'GET' && r.url === '/api/v1/face-detect/fd_1')).toBe(true);
  });

  it('waitFor stops at a failed detection', async () => {
    const failed = faceDetectTask({ status: 'failed', error: 'not an image' });
    server = await startServer(scripted({ status: 200, body: failed }));

    await expect(clientFor(server).faceDetect.waitFor('fd_1')).resolves.toEqual(failed);
  });
});
