import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startDohServer, type DohAnswers, type DohServer } from '@doppel/core/testing/doh-server';
import { sendBytes, startMediaServer, type MediaRoute, type MediaServer } from '@doppel/core/testing/media-server';
import { createTestCa } from '@doppel/core/testing/test-ca';
import { startTestApp, type TestApp, type TestAppOptions } from './app';

const require = createRequire(import.meta.url);
const demoDir = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo');

/** One of the six real group photos shipped with @vladmandic/face-api (3-5 faces each). */
export function demoPhoto(n: 1 | 2 | 3 | 4 | 5 | 6): Buffer {
  return readFileSync(path.join(demoDir, `sample${n}.jpg`));
}

/** Public-looking names the loopback DoH server answers, and what they resolve to. */
export const TEST_NAMES: DohAnswers = {
  'media.test': { addresses: ['127.0.0.1'] },
  'hooks.media.test': { addresses: ['127.0.0.1'] },
  'intranet.example.com': { addresses: ['10.1.2.3'] },
  'missing.example.com': { rcode: 'NXDOMAIN' },
};

export interface IntakeWorld {
  media: MediaServer;
  doh: DohServer;
  /** `https://media.test:<port><path>`: a media URL the guard lets through (loopback is allow-listed). */
  url(path: string): string;
  /** A test app whose fetches reach the loopback media server through the real guard. */
  startApp(options?: TestAppOptions): Promise<TestApp>;
  close(): Promise<void>;
}

/**
 * The world a create request meets: an HTTPS media server and a DoH resolver on loopback, both
 * with certificates of the test CA, and apps that allow only 127.0.0.0/8 beyond the public
 * internet. (With the job workers and the real engine: launcher/test/support/intake-world.ts.)
 */
export async function startIntakeWorld(routes: Record<string, MediaRoute>): Promise<IntakeWorld> {
  const ca = await createTestCa();
  const media = await startMediaServer({ routes });
  const doh = await startDohServer({ answers: TEST_NAMES });
  return {
    media,
    doh,
    url: (p) => media.url('media.test', p),
    async startApp(options = {}) {
      return startTestApp({
        ...options,
        ca: ca.certPem,
        env: { DOPPEL_DOH_URLS: doh.url, DOPPEL_ALLOW_PRIVATE_CIDRS: '127.0.0.0/8', ...options.env },
      });
    },
    async close() {
      await media.close();
      await doh.close();
    },
  };
}

export { sendBytes };
