import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { issueApiKey } from '../../src/accounts/api-keys';
import { grantCredits } from '../../src/accounts/credits';
import { createUser } from '../../src/accounts/users';
import { buildApp } from '../../src/app';
import { KeyVault } from '../../src/auth/key-vault';
import { loadConfig, type Config } from '../../src/config';
import type { Db } from '../../src/db/connect';
import { createTestDatabase, type TestDatabase } from './database';

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
}

/**
 * A Doppel API server on 127.0.0.1 with a random port and a database of its own (or shared
 * with `shareWith`). Logging is silent unless DOPPEL_LOG_LEVEL is given.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig({ DOPPEL_LOG_LEVEL: 'silent', DOPPEL_HOST: '127.0.0.1', DOPPEL_PORT: '0', ...options.env });
  const database = options.shareWith?.database ?? (await createTestDatabase());
  const vault = options.shareWith?.vault ?? new KeyVault(randomBytes(32));
  const { db } = database;
  const app = await buildApp({ config, db, vault }, { logStream: options.logStream });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server is not listening on TCP');
  const url = `http://127.0.0.1:${address.port}`;

  return {
    app,
    url,
    config,
    db,
    database,
    vault,
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
      if (!options.shareWith) await database.close();
    },
  };
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
