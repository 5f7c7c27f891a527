import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectDatabase, type Db } from '../../src/db/connect';

export interface TestDatabase {
  url: string;
  db: Db;
  /**
   * Round trips to PostgreSQL made through `db` so far. node-postgres sends each query as one
   * exchange that ends when the server is ready for the next (it never pipelines two), so this
   * is the number of queries its connections have sent.
   */
  roundTrips(): number;
  close(): Promise<void>;
}

/** A node-postgres client class whose every connection adds its queries to `counter`. */
function countingClient(counter: { roundTrips: number }): typeof pg.Client {
  class CountingClient extends pg.Client {}
  CountingClient.prototype.query = new Proxy(pg.Client.prototype.query, {
    apply(query, client, args) {
      counter.roundTrips++;
      return Reflect.apply(query, client, args);
    },
  });
  return CountingClient;
}

/** A database of its own for one test file, cloned from the migrated template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `doppel_t_${inject('testRunId')}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database "${name}" template "${inject('templateDatabase')}"`);
        break;
      } catch (error) {
        // Two files cloning the template at the same instant collide (55006); take turns.
        if ((error as { code?: string }).code !== '55006' || attempt > 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    }
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const counter = { roundTrips: 0 };
  const db = connectDatabase(url.toString(), { max: 10, Client: countingClient(counter) });
  return { url: url.toString(), db, roundTrips: () => counter.roundTrips, close: () => db.destroy() };
}
