import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const launcherDir = path.resolve(import.meta.dirname, '../..');
const tsx = path.join(launcherDir, 'node_modules/.bin/tsx');

function start(env: Record<string, string>, command: [string, string[], string] = [tsx, ['src/main.ts'], launcherDir]) {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const [program, args, cwd] = command;
  return spawn(program, args, { cwd, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function exitOf(child: ReturnType<typeof start>): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * Runs `steps` against a started process, handing them `stop` (SIGTERM, then the exit code).
 * Whatever `steps` do, a failed assertion among them included, the process (and its PostgreSQL)
 * is not left running.
 */
async function whileRunning(child: ReturnType<typeof start>, steps: (stop: () => Promise<number | null>) => Promise<void>) {
  const exited = exitOf(child);
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  try {
    await steps(stop);
  } finally {
    if (child.exitCode === null) await stop();
  }
}

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'doppel-start-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('pnpm start', () => {

  it('stops with one line naming the variable when the configuration is invalid', async () => {
    const child = start({ DOPPEL_PORT: 'eighty', DOPPEL_DATA_DIR: dataDir });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await exitOf(child)).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^invalid configuration: DOPPEL_PORT: /)]);
  });

  it('refuses to start, naming the variable, when ffprobe cannot be run', async () => {
    const child = start({ DOPPEL_FFPROBE_PATH: path.join(dataDir, 'no-such-ffprobe'), DOPPEL_DATA_DIR: dataDir, DOPPEL_PORT: '0' });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    expect(await exitOf(child)).toBe(1);
    expect(stderr).toMatch(/could not start: .*no-such-ffprobe.*DOPPEL_FFPROBE_PATH/);
    expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
  });

  it.each([
    ['the server process', undefined],
    ['`pnpm start` at the top of the repository, which passes the signal on', ['pnpm', ['--silent', 'start'], path.resolve(launcherDir, '..')]],
  ] as const)('serves on the embedded PostgreSQL and stops it cleanly on SIGTERM to %s', async (_, command) => {
    const child = start({ DOPPEL_DATA_DIR: dataDir, DOPPEL_PORT: '0', DOPPEL_LOG_LEVEL: 'info' }, command && [command[0], [...command[1]], command[2]]);
    await whileRunning(child, async (stop) => {
      const lines = createInterface({ input: child.stdout });
      let url: string | undefined;
      for await (const line of lines) {
        url = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
        if (url) break;
      }
      child.stdout.resume();
      expect(url).toBeDefined();
      expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);

      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const me = await fetch(`${url}/api/v1/me`);
      expect(me.status).toBe(401);
      expect(((await me.json()) as { error: { code: string } }).error.code).toBe('unauthorized');

      expect(await stop()).toBe(0);
    });
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});

describe('pnpm worker', () => {

  it('runs the job workers alone, serving no HTTP, and stops cleanly on SIGTERM', async () => {
    const root = path.resolve(launcherDir, '..');
    const child = start({ DOPPEL_DATA_DIR: dataDir, DOPPEL_PORT: '0', DOPPEL_LOG_LEVEL: 'info' }, ['pnpm', ['--silent', 'worker'], root]);
    await whileRunning(child, async (stop) => {
      const messages: string[] = [];
      for await (const line of createInterface({ input: child.stdout })) {
        messages.push(String((JSON.parse(line) as { msg?: unknown }).msg));
        if (messages.at(-1) === 'job workers started') break;
      }
      child.stdout.resume();
      expect(messages).toContain('job workers started');
      expect(messages.filter((m) => m.startsWith('Server listening'))).toEqual([]);
      expect(await stop()).toBe(0);
    });
  });
});
