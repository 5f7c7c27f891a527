import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';

let world: IntakeWorld;
let t: TestApp;

beforeAll(async () => {
  world = await startIntakeWorld({ '/group.jpg': sendBytes(demoPhoto(3)), '/clip.gif': sendBytes(Buffer.from('GIF89a')) });
  t = await world.startApp();
});
afterAll(async () => {
  await t?.close();
  await world?.close();
});

describe('POST /face-detect', () => {
  it('queues a detection and answers 202 with its poll URL, costing nothing', async () => {
    const account = await t.createAccount({ credits: 0 });
    const res = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/group.jpg') } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({
      task_id: expect.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
      status: 'queued',
      poll_url: `/api/v1/face-detect/${res.body.task_id}`,
      note: expect.any(String),
    });
    const poll = await t.request(res.body.poll_url, { key: account.apiKey });
    expect(poll.body).toMatchObject({ task_id: res.body.task_id, status: 'queued', faces: null, faces_detected: null });
    const jobs = await t.services.boss.findJobs('face-detect', { data: { taskId: res.body.task_id } });
    expect(jobs).toHaveLength(1);
  });

  it('refuses bad target URLs', async () => {
    const account = await t.createAccount();
    const cases: [unknown, number, string][] = [
      [{}, 400, 'validation_error'],
      [{ target_url: 'http://media.test/a.jpg' }, 400, 'validation_error'],
      [{ target_url: 'https://2130706433/a.jpg' }, 400, 'validation_error'],
      [{ target_url: world.url('/group.jpg'), extra: true }, 400, 'validation_error'],
      [{ target_url: 'https://intranet.example.com/a.jpg' }, 400, 'source_unreachable'],
      [{ target_url: 'https://[::ffff:10.0.0.1]/a.jpg' }, 400, 'validation_error'],
      [{ target_url: 'https://[::ffff:a00:1]/a.jpg' }, 400, 'source_unreachable'],
      [{ target_url: world.url('/clip.gif') }, 415, 'unsupported_media_type'],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: body });
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(await t.db.selectFrom('face_detect_tasks').select('id').where('api_key_id', '=', account.apiKeyId).execute()).toEqual([]);
  });

  it('rolls the task back when its job cannot be queued', async () => {
    const account = await t.createAccount();
    await t.services.boss.deleteQueue('face-detect');
    try {
      const res = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/group.jpg') } });
      expect([res.status, res.body.error.code]).toEqual([500, 'internal_error']);
    } finally {
      await t.services.boss.createQueue('face-detect');
    }
    expect(await t.db.selectFrom('face_detect_tasks').select('id').where('api_key_id', '=', account.apiKeyId).execute()).toEqual([]);
  });
});
