import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import type { S3StorageOptions } from './storage/s3-storage';

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const url = z.string().url();
const list = z.string().transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));
const MiB = 1024 * 1024;

/**
 * Which peers may tell us the client address through X-Forwarded-For: `false` (none), a hop
 * count (the last N entries were written by our own proxies), proxy addresses or CIDRs, or
 * `true` (every hop: anyone can then choose their address, so only behind a proxy that
 * overwrites the header).
 */
const trustProxy = z.string().transform((value, ctx): boolean | number | string[] => {
  const text = value.trim().toLowerCase();
  if (['false', 'no', '0', ''].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return true;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = entries.find((entry) => !(entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry)));
  if (bad === undefined) return entries;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: `false, true, a hop count, or proxy addresses/CIDRs; "${bad}" is none of these` });
  return z.NEVER;
});

/** Every setting, by the environment variable that sets it. Documented in docs/configuration.md. */
const EnvSchema = z.object({
  DATABASE_URL: url.optional(),
  DOPPEL_DATA_DIR: z.string().min(1).default('./.doppel'),
  DOPPEL_HOST: z.string().min(1).optional(),
  DOPPEL_PORT: int(0, 65535).optional(),
  // The platform convention (PaaS hosts set PORT), used when the DOPPEL_ names are unset.
  HOST: z.string().min(1).optional(),
  PORT: int(0, 65535).optional(),
  DOPPEL_PUBLIC_URL: url.optional(),
  DOPPEL_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DOPPEL_MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  DOPPEL_TRUST_PROXY: trustProxy.default('false'),
  DOPPEL_BODY_LIMIT_BYTES: int(1024).default(64 * 1024),
  DOPPEL_RATE_LIMIT_PER_MINUTE: int(1).default(60),
  DOPPEL_RATE_LIMIT_PER_DAY: int(1).default(10_000),
  DOPPEL_CONCURRENT_CREATES: int(1).default(10),
  DOPPEL_AUTH_FAILURES_PER_MINUTE: int(1).default(20),
  DOPPEL_METRICS_PORT: int(0, 65535).optional(),
  DOPPEL_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  DOPPEL_METRICS_TOKEN: z.string().min(16, 'DOPPEL_METRICS_TOKEN: at least 16 characters').optional(),
  DOPPEL_DB_POOL_SIZE: int(1, 1000).default(10),
  DOPPEL_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  DOPPEL_DOH_URLS: list.pipe(z.array(url).min(1)).default('https://cloudflare-dns.com/dns-query,https://dns.google/dns-query'),
  DOPPEL_ALLOW_PRIVATE_CIDRS: list.default(''),
  DOPPEL_MAX_IMAGE_BYTES: int(1024).default(15 * MiB),
  DOPPEL_MAX_GIF_BYTES: int(1024).default(30 * MiB),
  DOPPEL_MAX_VIDEO_BYTES: int(1024).default(200 * MiB),
  DOPPEL_INTAKE_BUDGET_BYTES: int(1024).default(1024 * MiB),
  DOPPEL_FETCH_TIMEOUT_SECONDS: int(1, 600).default(30),
  DOPPEL_WAIT_BUDGET_SECONDS: int(0, 600).default(60),
  DOPPEL_SCAN_WAIT_SECONDS: int(0, 120).default(20),
  DOPPEL_SCAN_RETRY_AFTER_SECONDS: int(1, 3600).default(10),
  DOPPEL_SCAN_PORN_THRESHOLD: z.coerce.number().min(0).max(1).optional(),
  DOPPEL_SCAN_HENTAI_THRESHOLD: z.coerce.number().min(0).max(1).optional(),
  DOPPEL_SCAN_SEXY_THRESHOLD: z.coerce.number().min(0).max(1).optional(),
  DOPPEL_IDEMPOTENCY_RETENTION_HOURS: int(24).default(24),
  DOPPEL_STORAGE: z.enum(['local', 's3']).default('local'),
  DOPPEL_S3_BUCKET: z.string().min(1).optional(),
  DOPPEL_S3_REGION: z.string().min(1).default('us-east-1'),
  DOPPEL_S3_ENDPOINT: url.optional(),
  DOPPEL_S3_FORCE_PATH_STYLE: bool.default('false'),
  DOPPEL_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  DOPPEL_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  DOPPEL_S3_PUBLIC_URL: url.optional(),
  DOPPEL_WORKER_THREADS: int(1, 64).optional(),
  DOPPEL_WORKER_CONCURRENCY: int(1, 64).optional(),
  DOPPEL_RETENTION_DAYS: int(1).default(30),
  DOPPEL_STORAGE_QUOTA_BYTES: int(MiB).default(20 * 1024 * MiB),
  DOPPEL_SHUTDOWN_GRACE_SECONDS: int(3, 3600).default(25),
  DOPPEL_REQUEST_TIMEOUT_SECONDS: int(1, 600).default(30),
  DOPPEL_KEEP_ALIVE_SECONDS: int(1, 3600).default(72),
  DOPPEL_MAX_CONNECTIONS: int(1).optional(),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  databaseUrl: string | undefined;
  dataDir: string;
  host: string;
  port: number;
  publicUrl: string;
  logLevel: Env['DOPPEL_LOG_LEVEL'];
  masterKey: Buffer | undefined;
  trustProxy: boolean | number | string[];
  bodyLimitBytes: number;
  rateLimit: { perMinute: number; perDay: number; concurrentCreates: number; authFailuresPerMinute: number };
  metrics: { port: number | undefined; host: string; token: string | undefined };
  dbPoolSize: number;
  /** `all` runs the API and the job workers in one process; `api` and `worker` run one side. */
  role: Env['DOPPEL_ROLE'];
  media: {
    dohUrls: string[];
    allowPrivateCidrs: string[];
    maxBytes: { image: number; gif: number; video: number };
    /** Fetched media all creates of one process may hold in memory at once. */
    intakeBudgetBytes: number;
    fetchTimeoutMs: number;
  };
  waitBudgetSeconds: number;
  scan: {
    waitSeconds: number;
    retryAfterSeconds: number;
    thresholds: { porn?: number; hentai?: number; sexy?: number };
  };
  idempotencyRetentionHours: number;
  storage: { kind: 'local' } | ({ kind: 's3' } & S3StorageOptions);
  workerThreads: number | undefined;
  workerConcurrency: number | undefined;
  retentionDays: number;
  /** Bytes one user's tasks may keep in storage (inputs, results, thumbnails). */
  storageQuotaBytes: number;
  /** SIGTERM to exit: in-flight requests, waits and jobs get this long before being cut off. */
  shutdownGraceSeconds: number;
  http: {
    /** Headers and body must have arrived within this (headers alone: a third of it, at most 10 s). */
    requestTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** Client connections at once; unset: derived from the open-file limit (connection-limits.ts). */
    maxConnections: number | undefined;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates the environment once; a bad value names its variable in one line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([key, value]) => key in EnvSchema.shape && value !== '')),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  const port = e.DOPPEL_PORT ?? e.PORT ?? 8080;
  return {
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DOPPEL_DATA_DIR),
    host: e.DOPPEL_HOST ?? e.HOST ?? '127.0.0.1',
    port,
    publicUrl: (e.DOPPEL_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    logLevel: e.DOPPEL_LOG_LEVEL,
    masterKey: e.DOPPEL_MASTER_KEY ? Buffer.from(e.DOPPEL_MASTER_KEY, 'base64') : undefined,
    trustProxy: e.DOPPEL_TRUST_PROXY,
    bodyLimitBytes: e.DOPPEL_BODY_LIMIT_BYTES,
    rateLimit: {
      perMinute: e.DOPPEL_RATE_LIMIT_PER_MINUTE,
      perDay: e.DOPPEL_RATE_LIMIT_PER_DAY,
      concurrentCreates: e.DOPPEL_CONCURRENT_CREATES,
      authFailuresPerMinute: e.DOPPEL_AUTH_FAILURES_PER_MINUTE,
    },
    metrics: { port: e.DOPPEL_METRICS_PORT, host: e.DOPPEL_METRICS_HOST, token: e.DOPPEL_METRICS_TOKEN },
    dbPoolSize: e.DOPPEL_DB_POOL_SIZE,
    role: e.DOPPEL_ROLE,
    media: {
      dohUrls: e.DOPPEL_DOH_URLS,
      allowPrivateCidrs: e.DOPPEL_ALLOW_PRIVATE_CIDRS,
      maxBytes: { image: e.DOPPEL_MAX_IMAGE_BYTES, gif: e.DOPPEL_MAX_GIF_BYTES, video: e.DOPPEL_MAX_VIDEO_BYTES },
      intakeBudgetBytes: e.DOPPEL_INTAKE_BUDGET_BYTES,
      fetchTimeoutMs: e.DOPPEL_FETCH_TIMEOUT_SECONDS * 1000,
    },
    waitBudgetSeconds: e.DOPPEL_WAIT_BUDGET_SECONDS,
    scan: {
      waitSeconds: e.DOPPEL_SCAN_WAIT_SECONDS,
      retryAfterSeconds: e.DOPPEL_SCAN_RETRY_AFTER_SECONDS,
      thresholds: {
        porn: e.DOPPEL_SCAN_PORN_THRESHOLD,
        hentai: e.DOPPEL_SCAN_HENTAI_THRESHOLD,
        sexy: e.DOPPEL_SCAN_SEXY_THRESHOLD,
      },
    },
    idempotencyRetentionHours: e.DOPPEL_IDEMPOTENCY_RETENTION_HOURS,
    storage: storageConfig(e),
    workerThreads: e.DOPPEL_WORKER_THREADS,
    workerConcurrency: e.DOPPEL_WORKER_CONCURRENCY,
    retentionDays: e.DOPPEL_RETENTION_DAYS,
    storageQuotaBytes: e.DOPPEL_STORAGE_QUOTA_BYTES,
    shutdownGraceSeconds: e.DOPPEL_SHUTDOWN_GRACE_SECONDS,
    http: {
      requestTimeoutMs: e.DOPPEL_REQUEST_TIMEOUT_SECONDS * 1000,
      keepAliveTimeoutMs: e.DOPPEL_KEEP_ALIVE_SECONDS * 1000,
      maxConnections: e.DOPPEL_MAX_CONNECTIONS,
    },
  };
}

function storageConfig(e: Env): Config['storage'] {
  if (e.DOPPEL_STORAGE === 'local') return { kind: 'local' };
  if (!e.DOPPEL_S3_BUCKET) throw new ConfigError('invalid configuration: DOPPEL_S3_BUCKET: required when DOPPEL_STORAGE=s3');
  const publicUrl = e.DOPPEL_S3_PUBLIC_URL ?? (e.DOPPEL_S3_ENDPOINT ? `${e.DOPPEL_S3_ENDPOINT.replace(/\/+$/, '')}/${e.DOPPEL_S3_BUCKET}` : undefined);
  if (!publicUrl) throw new ConfigError('invalid configuration: DOPPEL_S3_PUBLIC_URL: required when DOPPEL_S3_ENDPOINT is not set');
  return {
    kind: 's3',
    bucket: e.DOPPEL_S3_BUCKET,
    region: e.DOPPEL_S3_REGION,
    endpoint: e.DOPPEL_S3_ENDPOINT,
    forcePathStyle: e.DOPPEL_S3_FORCE_PATH_STYLE,
    accessKeyId: e.DOPPEL_S3_ACCESS_KEY_ID,
    secretAccessKey: e.DOPPEL_S3_SECRET_ACCESS_KEY,
    publicUrl,
  };
}

