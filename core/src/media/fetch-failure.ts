/**
 * Why a guarded fetch did not produce a usable response. Messages are for logs and may name
 * addresses; callers facing the API build their own message from `failure` alone.
 */
export type FetchFailure =
  | 'invalid_url'
  | 'refused_name'
  | 'refused_address'
  | 'dns_failed'
  | 'connect_failed'
  | 'timeout'
  | 'redirect_refused'
  | 'too_many_redirects'
  | 'too_large'
  | 'over_budget'
  | 'http_status'
  | 'broken_response';

export class GuardedFetchError extends Error {
  override readonly name = 'GuardedFetchError';
  constructor(
    readonly failure: FetchFailure,
    message: string,
    options: { cause?: unknown; status?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.status = options.status;
  }

  /** The upstream HTTP status, for `http_status` failures. */
  readonly status: number | undefined;
}
