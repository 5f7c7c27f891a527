import path from 'node:path';
import { z } from 'zod';

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const url = z.string().url();

/** Every setting, by the environment variable that sets it. Documented in docs/configuration.md. */
const EnvSchema = z.object({
  DATABASE_URL: url.optional(),
  DOPPEL_DATA_DIR: z.string().min(1).default('./.doppel'),
  DOPPEL_HOST: z.string().min(1).default('127.0.0.1'),
  DOPPEL_PORT: int(0, 65535).default(8080),
  DOPPEL_PUBLIC_URL: url.optional(),
  DOPPEL_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DOPPEL_MASTER_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
  DOPPEL_TRUST_PROXY: bool.default('false'),
  DOPPEL_BODY_LIMIT_BYTES: int(1024).default(64 * 1024),
  DOPPEL_RATE_LIMIT_PER_MINUTE: int(1).default(60),
  DOPPEL_RATE_LIMIT_PER_DAY: int(1).default(10_000),
  DOPPEL_CONCURRENT_CREATES: int(1).default(10),
  DOPPEL_AUTH_FAILURES_PER_MINUTE: int(1).default(20),
  DOPPEL_METRICS_PORT: int(0, 65535).optional(),
  DOPPEL_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  DOPPEL_DB_POOL_SIZE: int(1, 1000).default(10),
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
  trustProxy: boolean;
  bodyLimitBytes: number;
  rateLimit: { perMinute: number; perDay: number; concurrentCreates: number; authFailuresPerMinute: number };
  metrics: { port: number | undefined; host: string };
  dbPoolSize: number;
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
  return {
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DOPPEL_DATA_DIR),
    host: e.DOPPEL_HOST,
    port: e.DOPPEL_PORT,
    publicUrl: (e.DOPPEL_PUBLIC_URL ?? `http://localhost:${e.DOPPEL_PORT}`).replace(/\/+$/, ''),
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
    metrics: { port: e.DOPPEL_METRICS_PORT, host: e.DOPPEL_METRICS_HOST },
    dbPoolSize: e.DOPPEL_DB_POOL_SIZE,
  };
}

