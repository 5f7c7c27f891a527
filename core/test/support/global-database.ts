import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectDatabase } from '../../src/db/connect';
import { openEmbeddedPostgres } from '../../src/db/embedded';
import { migrateToLatest } from '../../src/db/migrate';
import { startBoss } from '../../src/queue/boss';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    templateDatabase: string;
    testRunId: string;
  }
}

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * One PostgreSQL for the whole run: the server named by DATABASE_URL, or an embedded one in a
 * temporary directory. A migrated template database is made once; every test file clones it.
 * Each project that needs a database names this file, and vitest runs it once per project: the
 * first provides the database to the whole run (the root context every project inherits), and
 * the others find it there instead of starting a cluster and a template of their own.
 */
export default async function setup(project: TestProject) {
  const vitest = project.vitest;
  if ('adminDatabaseUrl' in vitest.getProvidedContext()) return;
  const runId = randomBytes(4).toString('hex');
  let tempDir: string | undefined;
  let embedded: Awaited<ReturnType<typeof openEmbeddedPostgres>> | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'doppel-test-pg-'));
    embedded = await openEmbeddedPostgres(tempDir);
    adminUrl = embedded.url;
  }

  const template = `doppel_tpl_${runId}`;
  await admin(adminUrl, (c) => c.query(`create database "${template}"`));
  const templateUrl = new URL(adminUrl);
  templateUrl.pathname = `/${template}`;
  const db = connectDatabase(templateUrl.toString(), { max: 1 });
  await migrateToLatest(db);
  await db.destroy();
  // Installing the queue schema once here saves every test file a few hundred milliseconds.
  const boss = await startBoss(templateUrl.toString(), (error) => {
    throw error;
  });
  await boss.stop({ graceful: false, close: true });

  vitest.provide('adminDatabaseUrl', adminUrl);
  vitest.provide('templateDatabase', template);
  vitest.provide('testRunId', runId);

  return async () => {
    await admin(adminUrl, async (c) => {
      const { rows } = await c.query<{ datname: string }>(
        `select datname from pg_database where datname like $1 or datname = $2`,
        [`doppel_t_${runId}_%`, template],
      );
      for (const { datname } of rows) await c.query(`drop database if exists "${datname}" with (force)`);
    });
    await embedded?.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
}
