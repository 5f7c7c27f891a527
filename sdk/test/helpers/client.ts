import { Doppel, type DoppelOptions } from '../../src';
import { ATTEMPT_HEADER, type TestServer } from './server';

export const API_KEY = 'dk_test_0123456789';

export function clientFor(server: TestServer, options: Partial<DoppelOptions> = {}): Doppel {
  return new Doppel({ apiKey: API_KEY, baseUrl: server.url, ...options });
}

/**
 * A fetch for the client that numbers each attempt in `ATTEMPT_HEADER` (for servers scripted
 * `byAttempt`) and records how each ended: the status it was answered with, or what it was
 * rejected with (the client's timeout error when it gave up waiting).
 */
export function numberedAttempts(): { fetch: typeof globalThis.fetch; outcomes: unknown[] } {
  const outcomes: unknown[] = [];
  let attempts = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const attempt = ++attempts;
    const headers = new Headers(init?.headers);
    headers.set(ATTEMPT_HEADER, String(attempt));
    try {
      const response = await globalThis.fetch(input, { ...init, headers });
      outcomes[attempt - 1] = response.status;
      return response;
    } catch (error) {
      outcomes[attempt - 1] = error;
      throw error;
    }
  };
  return { fetch, outcomes };
}
