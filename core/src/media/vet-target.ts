import { httpsUrlProblem } from '@doppel/contract';
import { normaliseHostname, parseIp, vetAddress, vetHostname, type AddressPolicy } from './address-policy';
import { DnsResolutionError } from './doh-resolver';
import { GuardedFetchError } from './fetch-failure';
import type { FetchGuard } from './fetch-guard';

/** A URL whose every address passed the policy: connect to these, never re-resolve. */
export interface VettedTarget {
  readonly url: URL;
  /** The host name for TLS verification (SNI), or null for an IP literal. */
  readonly servername: string | null;
  readonly addresses: readonly string[];
}

/**
 * Validates the URL (HTTPS, no credentials, canonical IP literals), then resolves it over DoH
 * and vets every address. A name with one refused address is refused as a whole: which of its
 * addresses a client ends up using is not ours to choose.
 */
export async function vetTarget(text: string, guard: FetchGuard, signal?: AbortSignal): Promise<VettedTarget> {
  const problem = httpsUrlProblem(text);
  if (problem) throw new GuardedFetchError('invalid_url', `URL ${problem}`);
  const url = new URL(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');

  if (parseIp(host)) {
    refuseUnlessAllowed(host, guard.policy);
    return { url, servername: null, addresses: [host] };
  }

  const name = normaliseHostname(host);
  const nameVerdict = vetHostname(name);
  if (!nameVerdict.allowed) throw new GuardedFetchError('refused_name', `${name}: ${nameVerdict.reason}`);

  let resolved;
  try {
    resolved = await guard.resolver.resolve(name, { signal });
  } catch (error) {
    if (error instanceof DnsResolutionError) throw new GuardedFetchError('dns_failed', error.message, { cause: error });
    throw error;
  }
  for (const { address } of resolved) refuseUnlessAllowed(address, guard.policy, name);
  return { url, servername: name, addresses: resolved.map(({ address }) => address) };
}

function refuseUnlessAllowed(address: string, policy: AddressPolicy, name?: string): void {
  const verdict = vetAddress(address, policy);
  if (!verdict.allowed) {
    const subject = name ? `${name} resolves to ${address}` : address;
    throw new GuardedFetchError('refused_address', `${subject}: ${verdict.reason}`);
  }
}
