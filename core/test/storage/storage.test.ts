import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/storage/local-storage';
import { S3Storage } from '../../src/storage/s3-storage';
import type { Storage } from '../../src/storage/storage';
import { startS3Server, type TestS3Server } from '../support/s3-server';

let s3: TestS3Server;
let dir: string;
const backends: Record<string, () => Storage> = {};

beforeAll(async () => {
  s3 = await startS3Server();
  dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-files-'));
  backends.local = () => new LocalStorage(dir, 'https://files.example.test/files');
  backends.s3 = () =>
    new S3Storage({
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      publicUrl: `${s3.endpoint}/${s3.bucket}`,
    });
});

afterAll(async () => {
  await s3.close();
  await rm(dir, { recursive: true, force: true });
});

describe.each(['local', 's3'])('%s storage', (name) => {
  it('returns the bytes that were put', async () => {
    const storage = backends[name]!();
    const body = Buffer.from([0, 1, 2, 250, 255]);
    await storage.put('inputs/swp_a/target-x1.jpg', body, 'image/jpeg');
    expect(Buffer.compare(await storage.get('inputs/swp_a/target-x1.jpg'), body)).toBe(0);
  });

  it('copies stored bytes to a second key that outlives the first', async () => {
    const storage = backends[name]!();
    const body = Buffer.from('scanned bytes');
    await storage.put('inputs/swp_c/target-x2.jpg', body, 'image/jpeg');
    await storage.copy('inputs/swp_c/target-x2.jpg', 'scans/abc123.jpg');
    await storage.delete(['inputs/swp_c/target-x2.jpg']);
    expect(Buffer.compare(await storage.get('scans/abc123.jpg'), body)).toBe(0);
  });

  it('keeps every file written side by side into a new folder, and writes there again once it is emptied', async () => {
    const storage = backends[name]!();
    const keys = ['target', 'source1', 'source2'].map((role) => `inputs/swp_d/${role}-x3.jpg`);
    await Promise.all(keys.map((key, i) => storage.put(key, Buffer.from(`bytes ${i}`), 'image/jpeg')));
    expect((await Promise.all(keys.map((key) => storage.get(key)))).map(String)).toEqual(['bytes 0', 'bytes 1', 'bytes 2']);

    await storage.delete(keys);
    await storage.put(keys[0]!, Buffer.from('again'), 'image/jpeg');
    expect(String(await storage.get(keys[0]!))).toBe('again');
  });

  it('forgets deleted objects', async () => {
    const storage = backends[name]!();
    await storage.put('results/r1/swp_b.png', Buffer.from('png'), 'image/png');
    await storage.delete(['results/r1/swp_b.png']);
    await expect(storage.get('results/r1/swp_b.png')).rejects.toThrow();
  });

  it('refuses keys that could escape their folder', async () => {
    const storage = backends[name]!();
    await expect(storage.put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);
    expect(() => storage.publicUrl('a/../../b')).toThrow(/invalid storage key/);
  });
});

it('serves S3 objects at their public URL', async () => {
  const storage = backends.s3!();
  await storage.put('results/r2/swp_c.txt', Buffer.from('hello'), 'text/plain');
  const response = await fetch(storage.publicUrl('results/r2/swp_c.txt'));
  expect(response.status).toBe(200);
  expect(await response.text()).toBe('hello');
});
