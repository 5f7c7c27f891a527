import { createHash } from 'node:crypto';
import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { DatabaseUnavailableError } from './unavailable';

/** A connection that cannot be made within this is an outage, not a request to wait forever. */
const CONNECT_TIMEOUT_MS = 5_000;

// bigint (int8) columns such as ledger ids and sums come back as strings by default.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Db = Kysely<Database>;

const PREPARED_MARK = '/* prepared */';

/**
 * Marks a statement run on (nearly) every request (first in a raw statement, or through a select
 * builder's `modifyFront`): each connection then parses and plans it once and afterwards only
 * executes it, which saves PostgreSQL most of the work of a short statement. Only for statements
 * that name their result columns: a prepared `select *` would fail once its table gains a column.
 */
export const PREPARED = sql.raw(PREPARED_MARK);

/** A statement given as text and positional parameters, marked PREPARED (for SQL that others write, such as pg-boss). */
export const preparedQuery = (text: string, parameters: readonly unknown[]): CompiledQuery => CompiledQuery.raw(`${PREPARED_MARK}${text}`, [...parameters]);

/** Statement names by text; only marked statements get one, so this stays small. */
const statementNames = new Map<string, string>();
const statementName = (text: string) => {
  let name = statementNames.get(text);
  if (!name) {
    name = `doppel_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
};

/** Runs statements marked PREPARED as named (prepared) statements of this connection. */
function prepareMarked(client: pg.PoolClient): pg.PoolClient {
  if (Object.hasOwn(client, 'query')) return client;
  const query = client.query.bind(client) as (config: pg.QueryConfig | string, values?: unknown[]) => Promise<pg.QueryResult>;
  Object.defineProperty(client, 'query', {
    value: (text: pg.QueryConfig | string, values?: unknown[]) =>
      typeof text === 'string' && text.includes(PREPARED_MARK) ? query({ name: statementName(text), text, values }) : query(text, values),
  });
  return client;
}

export interface ConnectOptions {
  max?: number;
  /** The client class of the pool's connections (node-postgres's `Client` option); tests count round trips with one. */
  Client?: pg.PoolConfig['Client'];
}

export function connectDatabase(connectionString: string, options: ConnectOptions = {}): Db {
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, Client: options.Client });
  // A client losing its connection must not crash the process, idle (the pool replaces it) or
  // checked out between two queries (the next query fails, and is answered as an outage).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // Whatever stops a connection from being made is the database being unreachable.
  const classifying = {
    connect: () =>
      pool.connect().then(prepareMarked, (error: unknown) => {
        throw new DatabaseUnavailableError('cannot connect to the database', { cause: error });
      }),
    end: () => pool.end(),
  };
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: classifying }) });
}
