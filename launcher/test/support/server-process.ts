import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { issueApiKey } from '@doppel/core/accounts/api-keys';
import { grantCredits } from '@doppel/core/accounts/credits';
import { createUser } from '@doppel/core/accounts/users';
import { KeyVault } from '@doppel/core/keys/key-vault';
import type { TestAccount } from '@doppel/server/testing/app';
import type { TestDatabase } from '@doppel/core/testing/database';

const launcherDir = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  readonly child: ChildProcess;
  /** http://127.0.0.1:<port>, once listening (role api or all). */
  readonly url: string;
  /** Every JSON log line so far, parsed. */
  readonly logs: Record<string, unknown>[];
  /** Settles with the exit code (or the signal's name) when the process ends. */
  readonly exited: Promise<number | string>;
  /** Resolves with the first log line matching, waiting for it if need be. */
  logLine(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** SIGKILL if still running; awaits the exit. */
  kill(): Promise<void>;
}

/**
 * One real Doppel server process, run as production should run it: `node` itself (no pnpm, no
 * tsx wrapper process), so signals reach it directly. Settings come only from the environment.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: launcherDir,
    env: { ...inherited, DOPPEL_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      return;
    }
    for (const wake of waiters) wake();
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  exited.then(() => {
    for (const wake of waiters) wake();
  });
  let ended = false;
  void exited.then(() => (ended = true));

  const logLine = (match: (line: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const look = () => {
        const found = logs.find(match);
        if (found) {
          waiters.delete(look);
          resolve(found);
        } else if (ended) {
          waiters.delete(look);
          reject(new Error(`server exited before the awaited log line; stderr: ${stderr}`));
        }
      };
      waiters.add(look);
      look();
    });

  let url = '';
  if (env.DOPPEL_ROLE !== 'worker') {
    const listening = await logLine((l) => typeof l.msg === 'string' && l.msg.startsWith('Server listening at'));
    url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(String(listening.msg))![1]!;
  } else {
    await logLine((l) => l.msg === 'job workers started');
  }
  return {
    child,
    url,
    logs,
    exited,
    logLine,
    async kill() {
      if (!ended) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** What server processes sharing one database need in common: its URL, a master key, a data dir. */
export interface ProcessWorld {
  env: Record<string, string>;
  vault: KeyVault;
  createAccount(database: TestDatabase, options?: { credits?: number }): Promise<TestAccount>;
  close(): Promise<void>;
}

/** `ca`: a PEM the processes trust beside the system roots (NODE_EXTRA_CA_CERTS), e.g. the test CA. */
export async function createProcessWorld(
  database: TestDatabase,
  options: { ca?: string; env?: Record<string, string> } = {},
): Promise<ProcessWorld> {
  const masterKey = randomBytes(32);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'doppel-proc-'));
  const vault = new KeyVault(masterKey);
  const caEnv: Record<string, string> = {};
  if (options.ca) {
    caEnv.NODE_EXTRA_CA_CERTS = path.join(dataDir, 'test-ca.pem');
    await writeFile(caEnv.NODE_EXTRA_CA_CERTS, options.ca);
  }
  return {
    vault,
    env: {
      DATABASE_URL: database.url,
      DOPPEL_MASTER_KEY: masterKey.toString('base64'),
      DOPPEL_DATA_DIR: dataDir,
      DOPPEL_HOST: '127.0.0.1',
      DOPPEL_PORT: '0',
      ...caEnv,
      ...options.env,
    },
    async createAccount(db, options = {}) {
      const user = await createUser(db.db, { email: `user-${randomBytes(6).toString('hex')}@example.com` });
      if (options.credits) await grantCredits(db.db, user.id, 'permanent', options.credits);
      const key = await issueApiKey(db.db, vault, user.id);
      return { userId: user.id, apiKeyId: key.id, apiKey: key.key };
    },
    close: () => rm(dataDir, { recursive: true, force: true }),
  };
}

