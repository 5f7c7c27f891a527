import { API_PREFIX, type AccountSnapshot } from '@doppel/contract';
import { APIConnectionError, APITimeoutError, DoppelError, errorCodeOf } from './core/errors';
import { systemClock, type Clock } from './internal/clock';
import {
  createContractClient,
  type RequestOptions,
  type ResourceContext,
  type TransportArgs,
} from './internal/contract-client';
import { expectStatus } from './internal/response';
import {
  backoffDelayMs,
  defaultRetryDelay,
  isRetryableStatus,
  serverRequestedDelayMs,
  type RetryDelayOptions,
} from './internal/retry';
import { FaceDetect } from './resources/face-detect';
import { Swaps } from './resources/swaps';

export interface DoppelOptions {
  /** Defaults to the `DOPPEL_API_KEY` environment variable. Server-side only: it also signs webhooks. */
  apiKey?: string;
  /**
   * Origin of the API, e.g. `https://doppel.example.com`. A URL ending in `/api/v1` (the spec's
   * `{base_url}`) is accepted too. Defaults to the `DOPPEL_BASE_URL` environment variable.
   */
  baseUrl?: string;
  /** Further attempts after a retryable failure. Default 2. */
  maxRetries?: number;
  /** Per-attempt timeout of one HTTP request, body included. Default 60000 ms. */
  timeoutMs?: number;
  /** A fetch implementation; defaults to the global one. */
  fetch?: typeof globalThis.fetch;
  /** Backoff bounds between retries. */
  retryDelay?: RetryDelayOptions;
  /** Time source for retry backoff and polling; replace it in tests to skip the waiting. */
  clock?: Clock;
}

interface RawResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

function environment(name: string): string | undefined {
  return globalThis.process?.env?.[name];
}

/** The contract's paths already start with `/api/v1`, so ts-rest needs the bare origin. */
function originOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new DoppelError(`baseUrl must be an absolute URL, got ${JSON.stringify(baseUrl)}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  const prefix = path.endsWith(API_PREFIX) ? path.slice(0, -API_PREFIX.length) : path;
  return `${url.origin}${prefix}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!/\bjson\b/i.test(response.headers.get('content-type') ?? '') || text === '') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export class Doppel {
  readonly swaps: Swaps;
  readonly faceDetect: FaceDetect;
  readonly #context: ResourceContext;
  readonly #fetch: typeof globalThis.fetch;
  readonly #timeoutMs: number;
  readonly #retryDelay: Required<RetryDelayOptions>;

  constructor(options: DoppelOptions = {}) {
    const apiKey = options.apiKey ?? environment('DOPPEL_API_KEY');
    if (!apiKey) throw new DoppelError('Missing API key: pass { apiKey } or set DOPPEL_API_KEY');
    const baseUrl = options.baseUrl ?? environment('DOPPEL_BASE_URL');
    if (!baseUrl) throw new DoppelError('Missing base URL: pass { baseUrl } or set DOPPEL_BASE_URL');
    // Resolved per call so a fetch installed or mocked after construction is still used.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#retryDelay = { ...defaultRetryDelay, ...options.retryDelay };
    this.#context = {
      api: createContractClient(originOf(baseUrl), apiKey, (args) => this.#send(args)),
      clock: options.clock ?? systemClock,
      maxRetries: options.maxRetries ?? 2,
    };
    this.swaps = new Swaps(this.#context);
    this.faceDetect = new FaceDetect(this.#context);
  }

  /** The calling account: credit balances and the live rate-limit state. Costs 0 credits. */
  async me(options?: RequestOptions): Promise<AccountSnapshot> {
    return expectStatus(await this.#context.api.me({ requestOptions: options }), 200);
  }

  /** Sends one logical request, retrying transient failures. Returns the final response as is. */
  async #send(args: TransportArgs): Promise<RawResponse> {
    const { signal, timeoutMs = this.#timeoutMs, maxRetries = this.#context.maxRetries } = args.requestOptions ?? {};
    const { clock } = this.#context;
    for (let retry = 0; ; retry++) {
      let delayMs: number;
      try {
        const response = await this.#attempt(args, timeoutMs, signal);
        if (retry >= maxRetries || !isRetryableStatus(response.status, errorCodeOf(response.body))) return response;
        const requested = serverRequestedDelayMs(response.headers, clock.now());
        if (requested !== null && requested > this.#retryDelay.maxServerDelayMs) return response;
        delayMs = requested ?? backoffDelayMs(retry, this.#retryDelay);
      } catch (error) {
        if (!(error instanceof APIConnectionError) || retry >= maxRetries) throw error;
        delayMs = backoffDelayMs(retry, this.#retryDelay);
      }
      await clock.sleep(delayMs, signal);
    }
  }

  /** One HTTP exchange under its own timeout. Throws APIConnectionError/APITimeoutError, or the abort reason. */
  async #attempt(args: TransportArgs, timeoutMs: number, signal: AbortSignal | undefined): Promise<RawResponse> {
    signal?.throwIfAborted();
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new APITimeoutError(timeoutMs)), timeoutMs);
    try {
      const response = await this.#fetch(args.path, {
        method: args.method,
        headers: args.headers,
        body: args.body,
        signal: controller.signal,
      });
      return { status: response.status, body: await readBody(response), headers: response.headers };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (controller.signal.reason instanceof APITimeoutError) throw controller.signal.reason;
      throw new APIConnectionError(undefined, { cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
