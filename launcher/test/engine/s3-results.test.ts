import { THUMBNAIL_SIZE } from '@doppel/engine';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@doppel/server/testing/app';
import { createImageSwap } from '../support/image-swap';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '../support/intake-world';
import { eventually, finishedSwap, stored } from '@doppel/server/testing/poll';
import { thumbnailKey } from '@doppel/core/storage/keys';
import { startS3Server, type TestS3Server } from '@doppel/core/testing/s3-server';

let world: IntakeWorld;
let s3: TestS3Server;
let t: TestApp;

beforeAll(async () => {
  s3 = await startS3Server();
  world = await startIntakeWorld({ '/face.jpg': sendBytes(demoPhoto(1)), '/group.jpg': sendBytes(demoPhoto(5)) });
  t = await world.startApp({
    engine: true,
    env: {
      DOPPEL_STORAGE: 's3',
      DOPPEL_S3_BUCKET: s3.bucket,
      DOPPEL_S3_ENDPOINT: s3.endpoint,
      DOPPEL_S3_FORCE_PATH_STYLE: 'true',
      DOPPEL_S3_ACCESS_KEY_ID: 'S3RVER',
      DOPPEL_S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await world?.close();
  await s3?.close();
});

describe('with S3-compatible storage', () => {
  it('keeps results in the bucket, answers with their bucket URL, and keeps thumbnails there in place of the inputs', async () => {
    const { account, id } = await createImageSwap(t, world);
    const swap = await finishedSwap(t, account.apiKey, id);
    expect(swap.status).toBe('done');
    expect(swap.result_url!.startsWith(`${s3.endpoint}/${s3.bucket}/results/`)).toBe(true);
    const result = await fetch(swap.result_url!);
    expect(result.status).toBe(200);
    const meta = await sharp(Buffer.from(await result.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([(await sharp(demoPhoto(5)).metadata()).width, (await sharp(demoPhoto(5)).metadata()).height]);

    const row = await t.db.selectFrom('swaps').select('inputs').where('id', '=', swap.id).executeTakeFirstOrThrow();
    const inputs = row.inputs as { target: { key: string } };
    await eventually('the target upload is deleted', async () => !(await stored(t, inputs.target.key)));
    const thumbnail = await sharp(await t.services.storage.get(thumbnailKey(swap.id, 'target'))).metadata();
    expect([thumbnail.format, Math.max(thumbnail.width, thumbnail.height)]).toEqual(['jpeg', THUMBNAIL_SIZE]);
    // The API serves no local files in this mode.
    expect((await t.request(`/files/${thumbnailKey(swap.id, 'target')}`)).status).toBe(404);
  });
});
