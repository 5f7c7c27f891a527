import { contract } from '@doppel/contract';
import { initClient, type ApiFetcherArgs } from '@ts-rest/core';
import type { Clock } from './clock';

/** Per-call overrides of the client's transport settings. */
export interface RequestOptions {
  /** Aborting cancels the request (and any pending retry) and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Per-attempt timeout. Defaults to the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Defaults to the client's `maxRetries`. */
  maxRetries?: number;
}

export type TransportArgs = ApiFetcherArgs & { requestOptions?: RequestOptions };
export type Transport = (args: TransportArgs) => Promise<{ status: number; body: unknown; headers: Headers }>;

/** ts-rest builds paths, query strings and bodies from the contract; our transport sends them. */
export function createContractClient(origin: string, apiKey: string, api: Transport) {
  return initClient(contract, {
    baseUrl: origin,
    baseHeaders: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
    api,
  });
}

export type ContractClient = ReturnType<typeof createContractClient>;

/** What every resource needs from the client that owns it. */
export interface ResourceContext {
  api: ContractClient;
  clock: Clock;
  maxRetries: number;
}
