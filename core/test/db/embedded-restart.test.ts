import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded';
import { until } from '../support/held-route';

let dataDir: string;
let cluster: EmbeddedDatabase;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'doppel-embedded-restart-'));
  cluster = await openEmbeddedPostgres(dataDir);
});
afterAll(async () => {
  await cluster?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const postmasterPid = async () => Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.query('select 1 as one')).rows[0].one === 1;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

describe('the embedded PostgreSQL', () => {
  it('is started again on the same address when it dies, keeping its data', async () => {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    await client.query('create table kept (n int); insert into kept values (42)');
    await client.end();

    const first = await postmasterPid();
    process.kill(first, 'SIGKILL');
    await until(async () => (await postmasterPid().catch(() => first)) !== first && (await answers(cluster.url)), 'a new postmaster', 30_000);

    const again = new pg.Client({ connectionString: cluster.url });
    await again.connect();
    expect((await again.query('select n from kept')).rows).toEqual([{ n: 42 }]);
    await again.end();
  });
});
