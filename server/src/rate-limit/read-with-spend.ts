import type { AppRoute } from '@ts-rest/core';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../auth/authenticate';
import type { Db } from '@doppel/core/db/connect';
import { spendRequest, type BudgetLimits, type BudgetState, type ReadAlong } from '@doppel/core/rate-limit/request-budget';

/** What the rate limit needs of a route's read. */
export interface SpendingRead {
  readonly route: AppRoute;
  /** Spends the request's budget, making the route's read in the same statement when it can. */
  spend(request: FastifyRequest, caller: Caller, db: Db, limits: BudgetLimits): Promise<BudgetState>;
}

/**
 * The one read a GET route makes, run in the statement that spends the request's budget
 * (enforceRateLimit): the request then costs one round trip to PostgreSQL instead of two, at the
 * same moment as before (after authentication, before anything else). `build` makes the read from
 * the request's parameters checked by the route's own contract schemas; a request that fails
 * them gets no read here, and ts-rest's validation answers it as before.
 */
export class ReadWithSpend<Row> implements SpendingRead {
  private readonly rowsByRequest = new WeakMap<FastifyRequest, Row[]>();

  constructor(
    readonly route: AppRoute,
    private readonly build: (request: FastifyRequest, caller: Caller, db: Db) => ReadAlong<Row> | undefined,
  ) {}

  async spend(request: FastifyRequest, caller: Caller, db: Db, limits: BudgetLimits): Promise<BudgetState> {
    const read = this.build(request, caller, db);
    const { state, rows } = await spendRequest(db, caller.apiKeyId, limits, read);
    if (read) this.rowsByRequest.set(request, rows);
    return state;
  }

  /** The rows read with the request's spend; the handler of an admitted, valid request always has them. */
  rowsOf(request: FastifyRequest): Row[] {
    const rows = this.rowsByRequest.get(request);
    if (!rows) throw new Error(`${this.route.method} ${this.route.path} was not read with the request's spend`);
    return rows;
  }
}
