import {
  isTerminalSwapStatus,
  type CreateSwapBody,
  type ListSwapsQuerySchema,
  type PublicSwap,
} from '@doppel/contract';
import type { z } from 'zod';
import { CursorPage, PagePromise } from '../core/pagination';
import { pollUntilTerminal, type WaitOptions } from '../core/polling';
import type { RequestOptions, ResourceContext } from '../internal/contract-client';
import { expectStatus } from '../internal/response';
import { assertTaskId } from '../internal/task-id';

export type SwapListParams = z.input<typeof ListSwapsQuerySchema>;

export interface SwapCreateOptions extends RequestOptions {
  /**
   * Makes the create safe to repeat: the same key replays the first result without a second
   * charge. When omitted and retries are enabled, one is generated per call and reused by its retries.
   */
  idempotencyKey?: string;
  /** Long-poll: the server holds the request until the swap is terminal or its wait budget ends. */
  wait?: boolean;
}

export type SwapWaitOptions = WaitOptions<PublicSwap>;

/** `timeoutMs` here bounds the whole wait, as in `waitFor`. */
export interface SwapCreateAndWaitOptions extends SwapWaitOptions {
  idempotencyKey?: string;
}

export class Swaps {
  readonly #context: ResourceContext;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  /** Creates a swap task; it starts `queued`. Charges credits. */
  async create(params: CreateSwapBody, options: SwapCreateOptions = {}): Promise<PublicSwap> {
    const { idempotencyKey, wait, ...requestOptions } = options;
    const retries = requestOptions.maxRetries ?? this.#context.maxRetries;
    const key = idempotencyKey ?? (retries > 0 ? globalThis.crypto.randomUUID() : undefined);
    const response = await this.#context.api.createSwap({
      body: params,
      query: wait ? { wait: 'true' } : {},
      headers: { 'idempotency-key': key },
      requestOptions,
    });
    return expectStatus(response, 201);
  }

  async retrieve(id: string, options?: RequestOptions): Promise<PublicSwap> {
    const response = await this.#context.api.getSwap({ params: { taskId: assertTaskId(id) }, requestOptions: options });
    return expectStatus(response, 200);
  }

  /**
   * Cancels a `queued` or `preparing` swap. A swap already processing or finished comes back
   * unchanged, so check `status` of the result.
   */
  async cancel(id: string, options?: RequestOptions): Promise<PublicSwap> {
    const response = await this.#context.api.cancelSwap({
      params: { taskId: assertTaskId(id) },
      requestOptions: options,
    });
    return expectStatus(response, 200);
  }

  /** Swaps of this key, newest first. Await for one page, or `for await` for every swap. */
  list(params: SwapListParams = {}, options?: RequestOptions): PagePromise<PublicSwap> {
    const fetchPage = async (cursor: string | undefined): Promise<CursorPage<PublicSwap>> => {
      const response = await this.#context.api.listSwaps({
        query: { ...params, cursor },
        requestOptions: options,
      });
      return new CursorPage(expectStatus(response, 200), fetchPage);
    };
    return new PagePromise(() => fetchPage(params.cursor));
  }

  /** Polls until the swap is `done`, `failed` or `canceled` and returns it; it does not throw on `failed`. */
  waitFor(id: string, options: SwapWaitOptions = {}): Promise<PublicSwap> {
    return pollUntilTerminal(
      { id, fetch: (signal) => this.retrieve(id, { signal }), isTerminal: (swap) => isTerminalSwapStatus(swap.status) },
      options,
      this.#context.clock,
    );
  }

  /** `create` then `waitFor`, polling rather than holding one long request open. */
  async createAndWait(params: CreateSwapBody, options: SwapCreateAndWaitOptions = {}): Promise<PublicSwap> {
    const { idempotencyKey, ...waitOptions } = options;
    const created = await this.create(params, { idempotencyKey, signal: waitOptions.signal });
    if (isTerminalSwapStatus(created.status)) return created;
    return this.waitFor(created.id, waitOptions);
  }
}
