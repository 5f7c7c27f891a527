import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase, type Db } from '@doppel/core/db/connect';
import { isMigrated, latestMigration } from '@doppel/core/db/migrate';
import { cliFor } from '../support/run-cli';

// An empty database, not a clone of the migrated template; named so the global teardown drops it.
let url: string;
let db: Db;
let doppel: ReturnType<typeof cliFor>;
beforeAll(async () => {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `doppel_t_${inject('testRunId')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`).finally(() => admin.end());
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  url = target.toString();
  db = connectDatabase(url, { max: 2 });
  doppel = cliFor(url);
});
afterAll(() => db.destroy());

describe('doppel migrate', () => {
  it('is required first: other commands refuse an outdated schema and change nothing', async () => {
    const run = await doppel('users', 'create', '--email', 'early@example.com');
    expect(run).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: "doppel: the database schema is not up to date; run 'doppel migrate' first\n",
    });
    expect(await isMigrated(db)).toBe(false);
  });

  it('applies every migration, then reports the schema up to date', async () => {
    const first = await doppel('migrate', '--json');
    expect(first).toMatchObject({ exitCode: 0, stderr: '' });
    const { applied, latest } = JSON.parse(first.stdout);
    expect(latest).toBe(latestMigration);
    expect(applied.at(-1)).toBe(latestMigration);
    expect(await isMigrated(db)).toBe(true);

    expect(await doppel('migrate')).toEqual({
      exitCode: 0,
      stdout: `Already up to date (${latestMigration}).\n`,
      stderr: '',
    });
    expect((await doppel('users', 'create', '--email', 'later@example.com')).exitCode).toBe(0);
  });
});
