import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/doppel.mjs', import.meta.url));

export interface CliRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `doppel` bin in a child process. Its environment is the test process's without
 * any database or Doppel settings, plus `env`: each test says exactly which database it means.
 */
export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL' && !name.startsWith('DOPPEL_')),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

/** A master key for the child, so the test can open what the CLI sealed. */
export function newMasterKey(): Buffer {
  return randomBytes(32);
}

/** `doppel` against one database (by URL), with a fixed master key. */
export function cliFor(databaseUrl: string, masterKey: Buffer = newMasterKey()) {
  return (...args: string[]) =>
    runCli(args, { DATABASE_URL: databaseUrl, DOPPEL_MASTER_KEY: masterKey.toString('base64') });
}
