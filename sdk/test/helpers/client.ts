import { Doppel, type DoppelOptions } from '../../src';
import type { TestServer } from './server';

export const API_KEY = 'dk_test_0123456789';

export function clientFor(server: TestServer, options: Partial<DoppelOptions> = {}): Doppel {
  return new Doppel({ apiKey: API_KEY, baseUrl: server.url, ...options });
}
