import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { DatabaseUnavailableError } from './unavailable';

/** A connection that cannot be made within this is an outage, not a request to wait forever. */
const CONNECT_TIMEOUT_MS = 5_000;

// bigint (int8) columns such as ledger ids and sums come back as strings by default.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = Kysely<Database>;

export function connectDatabase(connectionString: string, options: { max?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A client losing its connection must not crash the process, idle (the pool replaces it) or
  // checked out between two queries (the next query fails, and is answered as an outage).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // Whatever stops a connection from being made is the database being unreachable.
  const classifying = {
    connect: () =>
      pool.connect().catch((error: unknown) => {
        throw new DatabaseUnavailableError('cannot connect to the database', { cause: error });
      }),
    end: () => pool.end(),
  };
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: classifying }) });
}
