import { creditBuckets, type CreditBucket } from '@doppel/core/db/schema';
import { UsageError } from './errors';

// A sanity check against typos, not RFC 5322: something@domain.tld without spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TIER = /^[a-z0-9][a-z0-9_-]{0,31}$/;
/** Balances are PostgreSQL `integer` columns. */
export const MAX_CREDITS = 2_147_483_647;

export function parseEmail(value: string): string {
  if (!EMAIL.test(value)) throw new UsageError(`--email must look like name@example.com, got '${value}'`);
  return value;
}

export function parseTier(value: string): string {
  if (!TIER.test(value)) {
    throw new UsageError(`--tier must be 1-32 lowercase letters, digits, '-' or '_', got '${value}'`);
  }
  return value;
}

export function parseAmount(option: string, value: string): number {
  const amount = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(amount >= 1 && amount <= MAX_CREDITS)) {
    throw new UsageError(`--${option} must be a whole number from 1 to ${MAX_CREDITS}, got '${value}'`);
  }
  return amount;
}

export function parseBucket(value: string): CreditBucket {
  const bucket = creditBuckets.find((b) => b === value);
  if (!bucket) throw new UsageError(`--bucket must be one of ${creditBuckets.join(', ')}, got '${value}'`);
  return bucket;
}
