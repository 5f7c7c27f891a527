import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SecureContextOptions } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { issueApiKey } from '@doppel/core/accounts/api-keys';
import { grantCredits } from '@doppel/core/accounts/credits';
import { createUser } from '@doppel/core/accounts/users';
import { buildApp } from '../../src/app';
import { KeyVault } from '@doppel/core/keys/key-vault';
import { loadConfig, type Config } from '@doppel/core/config';
import type { Db } from '@doppel/core/db/connect';
import { freePort } from '@doppel/core/free-port';
import { createLogger } from '@doppel/core/logging';
import type { Runtime } from '@doppel/core/runtime';
import { openServices, type Services } from '@doppel/core/services';
import { createTestDatabase, type TestDatabase } from '@doppel/core/testing/database';

export interface TestAccount {
  userId: string;
  apiKeyId: string;
  /** The full key, for `Authorization: Bearer`. */
  apiKey: string;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests assert on the shape
  body: any;
}

export interface TestRequest {
  method?: string;
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** Serialised as JSON with `Content-Type: application/json`. */
  json?: unknown;
  /** A raw body, sent with exactly the headers given. */
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  /** Base URL of the listening server, e.g. http://127.0.0.1:40123 (no trailing slash). */
  url: string;
  config: Config;
  db: Db;
  database: TestDatabase;
  vault: KeyVault;
  services: Services;
  createAccount(options?: { credits?: number; tier?: string; emailVerified?: boolean }): Promise<TestAccount>;
  /** An HTTP request to this server over loopback. */
  request(path: string, init?: TestRequest): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Settings by environment variable, read through the production config loader. */
  env?: Record<string, string>;
  /** Another test app whose database (and key vault) this one shares, as a second server process would. */
  shareWith?: TestApp;
  logStream?: NodeJS.WritableStream;
  /** Trusted roots for fetched media and DoH (the test CA). */
  ca?: SecureContextOptions['ca'];
  /**
   * Runs the job workers in this process too, on the app's database, services and logger. The
   * server does not know the worker: tests of both together pass it (launcher/test/support).
   */
  worker?: StartWorker;
}

/** Starts the job workers beside a test app; `stop` lets running jobs finish. */
export type StartWorker = (
  parts: Omit<Runtime, 'close'> & Services & { logger: ReturnType<typeof createLogger> },
) => Promise<{ stop(): Promise<void> }>;

/**
 * A Doppel API server on 127.0.0.1 with a random port and a database of its own (or shared
 * with `shareWith`). Logging is silent unless DOPPEL_LOG_LEVEL is given.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // A second process on the same database shares its files too, as it would share a bucket.
  const dataDir = options.shareWith?.config.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'doppel-app-')));
  // The port is chosen up front because result URLs name it.
  const port = await freePort();
  const config = loadConfig({
    DOPPEL_LOG_LEVEL: 'silent',
    DOPPEL_HOST: '127.0.0.1',
    DOPPEL_PORT: String(port),
    DOPPEL_PUBLIC_URL: `http://127.0.0.1:${port}`,
    DOPPEL_DATA_DIR: dataDir,
    ...options.env,
  });
  const database = options.shareWith?.database ?? (await createTestDatabase());
  const vault = options.shareWith?.vault ?? new KeyVault(randomBytes(32));
  const { db } = database;
  const logger = createLogger(config, options.logStream);
  const runtime = { config, db, vault, databaseUrl: database.url };
  const services = await openServices(runtime, { onError: (error) => logger.error({ err: error }, 'queue error'), ca: options.ca });
  const app = await buildApp(runtime, services, { logger });
  await app.listen({ host: '127.0.0.1', port });
  const url = config.publicUrl;
  const workers = options.worker ? await options.worker({ ...runtime, ...services, logger }) : undefined;

  return {
    app,
    url,
    config,
    db,
    database,
    vault,
    services,
    async createAccount(account = {}) {
      const user = await createUser(db, {
        email: `user-${randomBytes(6).toString('hex')}@example.com`,
        tier: account.tier,
        emailVerified: account.emailVerified,
      });
      if (account.credits) await grantCredits(db, user.id, 'permanent', account.credits);
      const key = await issueApiKey(db, vault, user.id);
      return { userId: user.id, apiKeyId: key.id, apiKey: key.key };
    },
    async request(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.key !== undefined) headers.authorization = `Bearer ${init.key}`;
      let body = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(url + path, { method: init.method ?? 'GET', headers, body });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, text, body: parsed };
    },
    async close() {
      await app.close();
      await workers?.stop();
      await services.close();
      if (!options.shareWith) {
        await database.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** Database administration for outage tests, through the admin connection of the run. */
async function asAdmin(run: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}

/**
 * An outage of one test database until `restore()`: every connection to it is cut and new ones
 * are refused, as when its server goes away, while other test files carry on.
 */
export async function cutDatabase(database: TestDatabase): Promise<{ restore(): Promise<void> }> {
  const name = new URL(database.url).pathname.slice(1);
  await asAdmin(async (client) => {
    await client.query(`alter database "${name}" allow_connections false`);
    await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
  });
  return { restore: () => asAdmin((client) => client.query(`alter database "${name}" allow_connections true`)) };
}

/** Drops a test app's database under it, as an outage would: every later query fails. */
export async function dropDatabase(database: TestDatabase): Promise<void> {
  const name = new URL(database.url).pathname.slice(1);
  const client = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await client.connect();
  try {
    await client.query(`drop database "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
