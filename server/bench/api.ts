import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { issueApiKey } from '@doppel/core/accounts/api-keys';
import { grantCredits } from '@doppel/core/accounts/credits';
import { createUser } from '@doppel/core/accounts/users';
import { loadConfig } from '@doppel/core/config';
import { freePort } from '@doppel/core/free-port';
import { scanId } from '@doppel/core/scans/content-scans';
import { openRuntime, type Runtime } from '@doppel/core/runtime';
import { startDohServer } from '@doppel/core/testing/doh-server';
import { sendBytes, startMediaServer } from '@doppel/core/testing/media-server';
import { createTestCa } from '@doppel/core/testing/test-ca';
import type { LoadResult, LoadScenario } from './load';

/**
 * `pnpm bench:api`: Doppel in the `api` role (its own process, on the embedded PostgreSQL or
 * DATABASE_URL) against bare Fastify returning a PublicSwap of the same size, both loaded by
 * autocannon from a third process. Every scenario runs BENCH_SECONDS with BENCH_CONNECTIONS;
 * "N keys" rotates BENCH_KEYS keys. Rate limits are raised so that only the 429 scenario is
 * refused; that one runs on a second server with the spec's limits, one key far over its budget.
 * Creates fetch real photos over HTTPS on loopback (test CA, loopback DoH), already scanned.
 * Traffic stays on 127.0.0.1; everything started here is stopped at the end or on a timeout.
 * Besides the rates: the CPU time the server process and the embedded PostgreSQL spent per response.
 * BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server process there; BENCH_ONLY=<text>
 * runs only the scenarios whose name contains it (the bare baseline always runs).
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KEYS = Number(process.env.BENCH_KEYS ?? 20);
const CPU_PROF = process.env.BENCH_CPU_PROF;
const ONLY = process.env.BENCH_ONLY;
/** The whole run is cut off after this, whatever happens. */
const WATCHDOG_MS = (60 + 12 * (SECONDS + 5)) * 1000;

const serverDir = path.join(path.dirname(new URL(import.meta.url).pathname), '..');
const require = createRequire(import.meta.url);
const demo = (n: number) =>
  readFileSync(path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', `sample${n}.jpg`));

/**
 * CPU ms to create one empty file in `dir`. On ext4 without a journal (this VM's root) it grows
 * with the files created and deleted there before, from 0.03 to about 1 ms; a create makes three
 * (its folder and two inputs), so it is printed beside the figures it moves.
 */
function fileCreateCpuMs(dir: string): number {
  const folder = path.join(dir, 'file-create-probe');
  mkdirSync(folder);
  const before = process.cpuUsage();
  const count = 200;
  for (let i = 0; i < count; i++) closeSync(openSync(path.join(folder, String(i)), 'wx'));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

/** Whether BENCH_ONLY lets the scenario of this name run. */
const selected = (name: string) => !ONLY || name.includes(ONLY);
const CREATES = `POST /swaps (scanned inputs, loopback HTTPS), ${KEYS} keys`;

const children = new Set<ChildProcess>();
function startChild(args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function firstLine(child: ChildProcess): Promise<string> {
  let text = '';
  for await (const chunk of child.stdout!) {
    text += String(chunk);
    if (text.includes('\n')) return text.slice(0, text.indexOf('\n'));
  }
  throw new Error(`child ended without output: ${text}`);
}

async function runLoad(scenario: Omit<LoadScenario, 'connections' | 'durationSeconds'> & { durationSeconds?: number }): Promise<LoadResult> {
  const child = startChild(
    ['bench/load.ts', JSON.stringify({ connections: CONNECTIONS, durationSeconds: SECONDS, ...scenario })],
  );
  return JSON.parse(await firstLine(child)) as LoadResult;
}

/** CPU time (user + system) a process has used so far, in milliseconds, from /proc (Linux). */
async function cpuMsOf(pid: number | undefined): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the file, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time of the embedded PostgreSQL so far (the postmaster and its children: the backends
 * serving the server, its background workers), or undefined on DATABASE_URL. A backend that
 * ends between two readings takes its time with it; the server's pooled ones live through a scenario.
 */
async function postgresCpuMs(dataDir: string): Promise<number | undefined> {
  if (process.env.DATABASE_URL) return undefined;
  const postmaster = Number((await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  if (!postmaster) return undefined;
  const stats = await Promise.all(
    (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map((pid) => readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')),
  );
  let total = 0;
  for (const stat of stats) {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Field 4 of the file is the parent's pid.
    if (Number(fields[1]) === postmaster || stat.startsWith(`${postmaster} `)) total += (Number(fields[11]) + Number(fields[12])) * 10;
  }
  return total;
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error('the Doppel server exited during start-up');
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startDoppel(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const prof = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(CPU_PROF)}`] : [];
  // Run as `pnpm start` runs it: the launcher's entry, from server/.
  const child = startChild([...prof, '../launcher/src/main.ts'], {
    DOPPEL_ROLE: 'api',
    DOPPEL_HOST: '127.0.0.1',
    DOPPEL_PORT: String(port),
    DOPPEL_LOG_LEVEL: 'warn',
    ...env,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(url, child);
  return { url, child };
}

/** Accounts with credits enough for the run, and clean verdicts for `scanned` (verdicts are kept per user). */
async function seedAccounts(runtime: Runtime, count: number, scanned: Buffer[] = []): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const user = await createUser(runtime.db, { email: `bench-${Date.now()}-${i}@example.com` });
    await grantCredits(runtime.db, user.id, 'permanent', 10_000_000);
    for (const bytes of scanned) await markScanned(runtime, user.id, bytes);
    keys.push((await issueApiKey(runtime.db, runtime.vault, user.id)).key);
  }
  return keys;
}

/** Records a clean verdict for these bytes of this user's, as a finished content scan would. */
async function markScanned(runtime: Runtime, userId: string, bytes: Buffer): Promise<void> {
  const sha256 = scanId(userId, bytes);
  await runtime.db
    .insertInto('content_scans')
    .values({ sha256, status: 'clean', media_kind: 'jpeg', storage_key: `scans/${sha256}.jpg`, completed_at: new Date() })
    .onConflict((oc) => oc.column('sha256').doUpdateSet({ status: 'clean' }))
    .execute();
}

interface Row {
  name: string;
  result: LoadResult;
  /** CPU of the server process per response, when known. */
  cpuMsPerRequest?: number;
  /** CPU of the embedded PostgreSQL per response, when known. */
  postgresMsPerRequest?: number;
}

function table(rows: Row[], bare: LoadResult): string {
  const lines = [
    `| scenario (${CONNECTIONS} connections, ${SECONDS} s) | req/s | p50 ms | p99 ms | vs bare Fastify | server CPU ms/req | PostgreSQL CPU ms/req | responses |`,
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const { name, result, cpuMsPerRequest, postgresMsPerRequest } of rows) {
    const statuses = Object.entries(result.statuses).map(([status, n]) => `${n}×${status}`).join(' ');
    lines.push(
      `| ${name} | ${Math.round(result.requestsPerSecond)} | ${result.p50} | ${result.p99} | ` +
        `${(result.requestsPerSecond / bare.requestsPerSecond).toFixed(3)}× | ${cpuMsPerRequest?.toFixed(2) ?? '–'} | ${postgresMsPerRequest?.toFixed(2) ?? '–'} | ${statuses}${result.errors ? ` ${result.errors} errors` : ''} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'doppel-bench-'));
  const config = loadConfig({ ...process.env, DOPPEL_DATA_DIR: workDir, DOPPEL_LOG_LEVEL: 'warn' });
  const runtime = await openRuntime(config);
  const target = demo(1);
  const source = demo(2);
  const ca = await createTestCa();
  const caFile = path.join(workDir, 'test-ca.pem');
  await writeFile(caFile, ca.certPem);
  const media = await startMediaServer({ routes: { '/target.jpg': sendBytes(target, { 'content-type': 'image/jpeg' }), '/source.jpg': sendBytes(source, { 'content-type': 'image/jpeg' }) } });
  const doh = await startDohServer({ answers: { 'media.test': { addresses: ['127.0.0.1'], ttl: 300 } } });
  const cleanUp = async () => {
    await Promise.all([...children].map(stopChild));
    await media.close();
    await doh.close();
    await runtime.close();
    await rm(workDir, { recursive: true, force: true });
  };
  const watchdog = setTimeout(() => {
    console.error(`bench:api: still running after ${WATCHDOG_MS / 1000} s; stopping`);
    void cleanUp().finally(() => process.exit(1));
  }, WATCHDOG_MS);

  try {
    const keys = await seedAccounts(runtime, KEYS, [target, source]);
    const serverEnv = {
      DATABASE_URL: runtime.databaseUrl,
      DOPPEL_DATA_DIR: workDir,
      DOPPEL_DOH_URLS: doh.url,
      DOPPEL_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8',
      NODE_EXTRA_CA_CERTS: caFile,
    };
    let doppel = await startDoppel({
      ...serverEnv,
      DOPPEL_RATE_LIMIT_PER_MINUTE: '100000000',
      DOPPEL_RATE_LIMIT_PER_DAY: '1000000000',
      DOPPEL_CONCURRENT_CREATES: '10000',
    });
    const auth = (key: string) => ({ authorization: `Bearer ${key}` });
    const createBody = JSON.stringify({ type: 'image', target_url: media.url('media.test', '/target.jpg'), source_url: media.url('media.test', '/source.jpg') });
    const post = (key: string) => ({ method: 'POST' as const, path: '/api/v1/swaps', headers: { ...auth(key), 'content-type': 'application/json' }, body: createBody });

    // One swap per key before the clock starts: the GET scenarios read them.
    const swapIds: string[] = [];
    for (const key of keys) {
      const response = await fetch(`${doppel.url}/api/v1/swaps`, { method: 'POST', headers: post(key).headers, body: createBody });
      const body = (await response.json()) as { id: string };
      if (response.status !== 201) throw new Error(`seeding a swap answered ${response.status}: ${JSON.stringify(body)}`);
      swapIds.push(body.id);
    }
    // Unmeasured: the server's code is compiled and optimised on the first requests.
    await runLoad({ url: doppel.url, durationSeconds: 2, requests: keys.map((key) => ({ method: 'GET', path: '/api/v1/swaps?limit=20', headers: auth(key) })) });
    const publicSwap = await (await fetch(`${doppel.url}/api/v1/swaps/${swapIds[0]}`, { headers: auth(keys[0]!) })).text();

    const bareChild = startChild(['bench/bare-fastify.ts', publicSwap]);
    const barePort = await firstLine(bareChild);
    const bareCpu = await cpuMsOf(bareChild.pid);
    const bare = await runLoad({ url: `http://127.0.0.1:${barePort}`, requests: [{ method: 'GET', path: '/swap', headers: {} }] });
    const bareCpuAfter = await cpuMsOf(bareChild.pid);
    await stopChild(bareChild);

    const perRequest = (before: number | undefined, after: number | undefined, result: LoadResult) =>
      before === undefined || after === undefined || result.total === 0 ? undefined : (after - before) / result.total;
    const rows: Row[] = [{ name: 'bare Fastify GET (PublicSwap body)', result: bare, cpuMsPerRequest: perRequest(bareCpu, bareCpuAfter, bare) }];
    const measure = async (name: string, requests: LoadScenario['requests'], url = doppel.url) => {
      if (!selected(name)) return;
      const [cpuBefore, postgresBefore] = [await cpuMsOf(doppel.child.pid), await postgresCpuMs(workDir)];
      const result = await runLoad({ url, requests });
      rows.push({
        name,
        result,
        cpuMsPerRequest: perRequest(cpuBefore, await cpuMsOf(doppel.child.pid), result),
        postgresMsPerRequest: perRequest(postgresBefore, await postgresCpuMs(workDir), result),
      });
      console.error(`${name}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`);
    };
    await measure(`GET /me, ${KEYS} keys`, keys.map((key) => ({ method: 'GET', path: '/api/v1/me', headers: auth(key) })));
    await measure(`GET /swaps/{id}, ${KEYS} keys`, keys.map((key, i) => ({ method: 'GET', path: `/api/v1/swaps/${swapIds[i]}`, headers: auth(key) })));
    await measure('GET /swaps/{id}, one key', [{ method: 'GET', path: `/api/v1/swaps/${swapIds[0]}`, headers: auth(keys[0]!) }]);
    await measure(`GET /swaps?limit=20, ${KEYS} keys`, keys.map((key) => ({ method: 'GET', path: '/api/v1/swaps?limit=20', headers: auth(key) })));
    // Unmeasured, after the GETs (whose list pages stay one swap long): the creates' code is
    // optimised and their pooled HTTPS connections to the media server opened, one per connection
    // of the load with its TLS handshake, as a server that has been running has them.
    if (selected(CREATES)) await runLoad({ url: doppel.url, durationSeconds: 2, requests: keys.map(post) });
    await measure(CREATES, keys.map(post));
    await stopChild(doppel.child);

    // The spec's limits: one key spends its minute, then everything it sends is refused.
    doppel = await startDoppel(serverEnv);
    const [hotKey] = await seedAccounts(runtime, 1);
    for (;;) {
      const response = await fetch(`${doppel.url}/api/v1/me`, { headers: auth(hotKey!) });
      await response.arrayBuffer();
      if (response.status === 429) break;
    }
    await measure('429 path: GET /me, one key over its limit', [{ method: 'GET', path: '/api/v1/me', headers: auth(hotKey!) }]);
    await stopChild(doppel.child);

    console.log(`\n${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${os.loadavg().map((n) => n.toFixed(1)).join(' ')}`);
    console.log(`creating a file beside the inputs: ${fileCreateCpuMs(path.join(workDir, 'files', 'inputs')).toFixed(3)} ms CPU`);
    console.log(table(rows, bare));
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}

await main();
