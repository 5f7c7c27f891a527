import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { TestApp } from '@doppel/server/testing/app';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { eventually, finishedDetection, stored } from '@doppel/server/testing/poll';
import { thumbnailKey } from '@doppel/core/storage/keys';

let world: IntakeWorld;
let t: TestApp;
let landscape: Buffer;

beforeAll(async () => {
  landscape = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#3a7bd5' } }).jpeg().toBuffer();
  world = await startIntakeWorld({
    '/group.jpg': sendBytes(demoPhoto(2)),
    '/landscape.jpg': sendBytes(landscape),
    '/broken.jpg': sendBytes(Buffer.concat([demoPhoto(2).subarray(0, 400)])),
  });
  t = await world.startApp({ engine: true, env: { DOPPEL_RATE_LIMIT_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
  await world?.close();
});

describe('a face-detect task', () => {
  it('ends done with one box per face, in left-to-right order, inside the image', async () => {
    const account = await t.createAccount();
    const created = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/group.jpg') } });
    const task = await finishedDetection(t, account.apiKey, created.body.task_id);
    const { width, height } = await sharp(demoPhoto(2)).metadata();

    expect(task.status).toBe('done');
    expect(task.faces_detected).toBeGreaterThanOrEqual(3);
    expect(task.faces).toHaveLength(task.faces_detected!);
    expect(task.completed_at).not.toBeNull();
    task.faces!.forEach((face, i) => {
      const box = face.bounding_box;
      expect(face.index).toBe(i);
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width! + 1);
      expect(box.y + box.height).toBeLessThanOrEqual(height! + 1);
      expect(box.width).toBeGreaterThanOrEqual(24);
    });
    const centres = task.faces!.map((f) => f.bounding_box.x + f.bounding_box.width / 2);
    expect(centres).toEqual([...centres].sort((a, b) => a - b));
  });

  it('keeps a thumbnail with the boxes drawn on it in place of the image, which is deleted', async () => {
    const account = await t.createAccount();
    const created = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/group.jpg') } });
    const task = await finishedDetection(t, account.apiKey, created.body.task_id);
    const row = await t.db.selectFrom('face_detect_tasks').select('target').where('id', '=', task.task_id).executeTakeFirstOrThrow();
    await eventually('the image is deleted', async () => !(await stored(t, (row.target as { key: string }).key)));

    const thumbnail = await sharp(await t.services.storage.get(thumbnailKey(task.task_id, 'target')))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { width } = await sharp(demoPhoto(2)).metadata();
    const scale = thumbnail.info.width / width!;
    const box = task.faces![0]!.bounding_box;
    // The middle of the box's top edge is drawn in the outline colour (#22d3ee), within the
    // pixel or two that scaling and JPEG blur it by.
    const [x, y] = [Math.round((box.x + box.width / 2) * scale), Math.round(box.y * scale)];
    const distances: number[] = [];
    for (let dy = -2; dy <= 2; dy++) {
      const at = ((y + dy) * thumbnail.info.width + x) * thumbnail.info.channels;
      const [r, g, b] = thumbnail.data.subarray(at, at + 3);
      distances.push(Math.hypot(r! - 0x22, g! - 0xd3, b! - 0xee));
    }
    expect(Math.min(...distances)).toBeLessThan(60);
  });

  it('ends done with no faces for a picture without people', async () => {
    const account = await t.createAccount();
    const created = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/landscape.jpg') } });
    const task = await finishedDetection(t, account.apiKey, created.body.task_id);
    expect(task).toMatchObject({ status: 'done', faces_detected: 0, faces: [] });
  });

  it('ends failed with a reason for an image that cannot be decoded', async () => {
    const account = await t.createAccount();
    const created = await t.request('/api/v1/face-detect', { method: 'POST', key: account.apiKey, json: { target_url: world.url('/broken.jpg') } });
    const task = await finishedDetection(t, account.apiKey, created.body.task_id);
    expect(task.status).toBe('failed');
    expect(task.error).toMatch(/decode/);
    expect(task.faces).toBeNull();
  });
});
