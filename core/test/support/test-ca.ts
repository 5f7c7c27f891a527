import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * A throwaway certificate authority made with the openssl CLI, so test servers speak real TLS
 * and clients verify real certificates. Pass `certPem` as the client's `ca` option. Keys live in
 * memory; openssl's files go to a temporary folder that is removed straight after each step.
 */

export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
}

export interface TestCa {
  readonly certPem: string;
  /** A server certificate for these DNS names and IP addresses (IPs become IP SANs). */
  issue(names: readonly string[]): Promise<TestCertificate>;
}

const run = promisify(execFile);
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

let shared: Promise<TestCa> | undefined;

/** One CA per test process; certificates are cheap, the CA is made once. */
export function createTestCa(): Promise<TestCa> {
  shared ??= makeCa();
  return shared;
}

async function inTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'doppel-test-ca-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function makeCa(): Promise<TestCa> {
  const ca = await inTempDir(async (dir) => {
    await run('openssl', [
      'req', '-x509', ...EC_KEY, '-keyout', `${dir}/ca.key`, '-out', `${dir}/ca.crt`, '-days', '2',
      '-subj', '/CN=Doppel Test CA',
      '-addext', 'basicConstraints=critical,CA:TRUE',
      '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    return { key: await readFile(`${dir}/ca.key`, 'utf8'), cert: await readFile(`${dir}/ca.crt`, 'utf8') };
  });
  let serial = 0;

  return {
    certPem: ca.cert,
    issue: (names) =>
      inTempDir(async (dir) => {
        const sans = names.map((name) => (isIP(name) ? `IP:${name}` : `DNS:${name}`)).join(',');
        await writeFile(`${dir}/ca.key`, ca.key);
        await writeFile(`${dir}/ca.crt`, ca.cert);
        await writeFile(`${dir}/leaf.ext`, `subjectAltName=${sans}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
        await run('openssl', ['req', ...EC_KEY, '-keyout', `${dir}/leaf.key`, '-out', `${dir}/leaf.csr`, '-subj', `/CN=${names[0]}`]);
        await run('openssl', [
          'x509', '-req', '-in', `${dir}/leaf.csr`, '-CA', `${dir}/ca.crt`, '-CAkey', `${dir}/ca.key`,
          '-set_serial', String(++serial), '-days', '2', '-extfile', `${dir}/leaf.ext`, '-out', `${dir}/leaf.crt`,
        ]);
        return { key: await readFile(`${dir}/leaf.key`, 'utf8'), cert: await readFile(`${dir}/leaf.crt`, 'utf8') };
      }),
  };
}
