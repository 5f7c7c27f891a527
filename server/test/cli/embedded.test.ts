import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedPostgres, type EmbeddedDatabase } from '@doppel/core/db/embedded';
import { runCli } from '../support/run-cli';

// No DATABASE_URL: the CLI finds PostgreSQL through the data dir alone, as beside `pnpm start`.
const doppelIn = (dataDir: string) => (...args: string[]) => runCli(args, { DOPPEL_DATA_DIR: dataDir });

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('select 1 as one')).rows[0].one === 1;
  } finally {
    await client.end();
  }
}

describe('doppel beside a running server (the embedded cluster is owned by another process)', () => {
  let dataDir: string;
  let server: EmbeddedDatabase;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'doppel-cli-attach-'));
    server = await openEmbeddedPostgres(dataDir);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('attaches to it: a key created by one CLI process is listed by another', async () => {
    const doppel = doppelIn(dataDir);
    expect((await doppel('migrate')).exitCode).toBe(0);
    const user = JSON.parse((await doppel('users', 'create', '--email', 'beside@example.com', '--json')).stdout);

    // Two processes at once, both attached to the same cluster.
    const [a, b] = await Promise.all([
      doppel('keys', 'create', '--user', user.id, '--json'),
      doppel('keys', 'create', '--user', user.id, '--json'),
    ]);
    const created = [JSON.parse(a.stdout).id, JSON.parse(b.stdout).id];

    const listed = await doppel('keys', 'list', '--user', user.id, '--json');
    expect(listed).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(listed.stdout).keys.map((k: { id: string }) => k.id).sort()).toEqual(created.sort());
  });

  it('leaves the cluster running for its owner', async () => {
    expect(await answers(server.url)).toBe(true);
  });
});

describe('doppel with nothing running', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'doppel-cli-own-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('starts the embedded cluster for one command and stops it again, quietly', async () => {
    const doppel = doppelIn(dataDir);
    const migrated = await doppel('migrate');
    expect(migrated).toMatchObject({ exitCode: 0, stderr: '' });
    expect(migrated.stdout).toMatch(/^Applied .+\.\n$/);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    // Started again from the kept data: the schema is still there.
    expect(await doppel('api', 'status')).toEqual({ exitCode: 0, stdout: 'The API is enabled.\n', stderr: '' });
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});
