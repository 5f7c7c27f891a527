import { sql, type RawBuilder } from 'kysely';
import pg from 'pg';

/**
 * SQL: the create's last check, as the final step of its one statement (doppel_settle_create,
 * migration 0013). Past the quota or unpaid, it raises, and the statement fails with nothing it
 * wrote kept; `createRefusal` tells which.
 */
export const settleCreateStep = (charged: RawBuilder<boolean>, storedBytes: RawBuilder<number>, quotaBytes: number): RawBuilder<boolean> =>
  sql<boolean>`doppel_settle_create(${charged}, ${storedBytes}, ${quotaBytes}::bigint)`;

/** Why settleCreateStep refused the create, when `error` is its refusal; `storedBytes`: what the user would keep with it. */
export function createRefusal(error: unknown): { refused: 'storage'; storedBytes: number } | { refused: 'credits' } | undefined {
  if (!(error instanceof pg.DatabaseError)) return undefined;
  if (error.code === 'DQ413') return { refused: 'storage', storedBytes: Number(error.detail) };
  return error.code === 'DQ402' ? { refused: 'credits' } : undefined;
}
