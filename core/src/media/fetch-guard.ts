import type { SecureContextOptions } from 'node:tls';
import { createAddressPolicy, type AddressPolicy } from './address-policy';
import { cachingResolver } from './doh-cache';
import { createDohResolver, type DohResolver } from './doh-resolver';

/** Everything needed to decide where the server may connect; built once from config. */
export interface FetchGuard {
  readonly resolver: DohResolver;
  readonly policy: AddressPolicy;
  /** Trusted roots for fetched hosts, replacing the system store (tests only). */
  readonly ca?: SecureContextOptions['ca'];
}

export interface FetchGuardConfig {
  /** DoH endpoints in order of preference; the public defaults when empty. */
  readonly dohResolvers?: readonly string[];
  readonly dohTimeoutMs?: number;
  /** DOPPEL_ALLOW_PRIVATE_CIDRS: non-public ranges that may be fetched from. Empty by default. */
  readonly allowPrivateCidrs?: readonly string[];
  /** Trusted roots for both the resolvers and the fetched hosts (tests only). */
  readonly ca?: SecureContextOptions['ca'];
}

/** Throws on a malformed CIDR, so a bad allow-list stops start-up instead of failing open. */
export function createFetchGuard(config: FetchGuardConfig = {}): FetchGuard {
  return {
    resolver: cachingResolver(createDohResolver({ resolvers: config.dohResolvers, timeoutMs: config.dohTimeoutMs, ca: config.ca })),
    policy: createAddressPolicy({ allowPrivateCidrs: config.allowPrivateCidrs }),
    ...(config.ca ? { ca: config.ca } : {}),
  };
}
