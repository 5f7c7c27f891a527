import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../free-port';
import { initialiseCluster, startCluster, type RunningCluster } from './embedded-cluster';

export const EMBEDDED_DATABASE = 'doppel';

export interface EmbeddedDatabase {
  url: string;
  /** False when another process (a running `pnpm start`) owns the cluster and we only attached. */
  owned: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  log?: (message: string) => void;
  /** The cluster died and could not be started again: the process should exit for its supervisor. */
  onLost?: (error: Error) => void;
}

interface Credentials {
  user: string;
  password: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The port of a cluster already running on this data dir, read from postgres's own pid file. */
async function runningPort(clusterDir: string): Promise<number | null> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pid, , , port] = (await readFile(pidFile, 'utf8')).split('\n');
  if (!pid || !port || !isAlive(Number(pid))) return null;
  return Number(port);
}

async function loadCredentials(dataDir: string): Promise<Credentials> {
  const file = path.join(dataDir, 'postgres.json');
  if (existsSync(file)) return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  const credentials = { user: 'doppel', password: randomBytes(18).toString('base64url') };
  await writeFile(file, JSON.stringify(credentials), { mode: 0o600 });
  return credentials;
}

function urlFor(credentials: Credentials, port: number, database: string): string {
  return `postgres://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

/**
 * Opens the PostgreSQL cluster kept under `dataDir`: attaches to it when another Doppel process
 * already runs it (so the CLI works beside `pnpm start`), otherwise initialises it on first use
 * and starts it on a free loopback port, restarting it should it die.
 */
export async function openEmbeddedPostgres(dataDir: string, options: EmbeddedOptions = {}): Promise<EmbeddedDatabase> {
  await mkdir(dataDir, { recursive: true });
  const asRoot = os.userInfo().uid === 0;
  // As root the cluster runs as the `postgres` user, which must be able to reach its folder.
  if (asRoot) await chmod(dataDir, (await stat(dataDir)).mode | 0o011);
  const clusterDir = path.resolve(dataDir, 'postgres');
  const credentials = await loadCredentials(dataDir);

  const attachedPort = await runningPort(clusterDir);
  if (attachedPort !== null) {
    return { url: urlFor(credentials, attachedPort, EMBEDDED_DATABASE), owned: false, stop: async () => {} };
  }

  if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    await initialiseCluster({ databaseDir: clusterDir, ...credentials, asRoot, log: options.log });
  }
  const port = await freePort();
  const cluster: RunningCluster = await startCluster({
    databaseDir: clusterDir,
    port,
    asRoot,
    log: options.log,
    onLost: options.onLost,
  });
  await ensureDatabase(urlFor(credentials, port, 'postgres'), EMBEDDED_DATABASE);
  return { url: urlFor(credentials, port, EMBEDDED_DATABASE), owned: true, stop: () => cluster.stop() };
}
