import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@doppel/core/testing/database';
import { createProcessWorld, startServerProcess, type ProcessWorld } from '../support/server-process';

const recorder = path.resolve(import.meta.dirname, '../support/record-modules.mjs');
const MODELS = /\/node_modules\/@(tensorflow|vladmandic)\/|\/engine\/src\/(faces\/human|tf\/backend|scan\/model)\.ts$/;

let database: TestDatabase;
let world: ProcessWorld;
let logDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  world = await createProcessWorld(database);
  logDir = await mkdtemp(path.join(os.tmpdir(), 'doppel-modules-'));
});

afterAll(async () => {
  await world?.close();
  await database?.close();
  await rm(logDir, { recursive: true, force: true });
});

/** The modules a real process of this role loaded by the time it was up, then stopped. */
async function modulesLoadedBy(role: 'api' | 'worker'): Promise<string[]> {
  const log = path.join(logDir, `${role}.log`);
  const server = await startServerProcess({
    ...world.env,
    DOPPEL_ROLE: role,
    DOPPEL_TEST_MODULE_LOG: log,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${recorder}`,
  });
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  return (await readFile(log, 'utf8')).split('\n').filter(Boolean);
}

describe('what each role loads', () => {
  it('an API process loads the server but none of the engine’s models (tfjs, Human, nsfwjs)', async () => {
    const modules = await modulesLoadedBy('api');
    expect(modules.some((url) => url.endsWith('/server/src/app.ts'))).toBe(true);
    expect(modules.filter((url) => MODELS.test(url))).toEqual([]);
  });

  it('a worker process does load them, so the check above can tell', async () => {
    const modules = await modulesLoadedBy('worker');
    expect(modules.filter((url) => MODELS.test(url))).not.toEqual([]);
  });
});
