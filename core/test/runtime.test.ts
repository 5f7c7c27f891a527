import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { openRuntime } from '../src/runtime';
import { createTestDatabase, type TestDatabase } from './support/database';

let database: TestDatabase;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'doppel-runtime-'));
});
afterAll(async () => {
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});

const configWith = (masterKey: Buffer) =>
  loadConfig({ DATABASE_URL: database.url, DOPPEL_DATA_DIR: dataDir, DOPPEL_MASTER_KEY: masterKey.toString('base64') });

describe('the master key', () => {
  it('must be the one the database was first opened with', async () => {
    const key = randomBytes(32);
    const first = await openRuntime(configWith(key));
    await first.close();
    const again = await openRuntime(configWith(key));
    await again.close();
    await expect(openRuntime(configWith(randomBytes(32)))).rejects.toThrow(/master key differs/);
  });
});
