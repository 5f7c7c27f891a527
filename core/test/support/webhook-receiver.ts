import { createFetchGuard, type FetchGuard } from '../../src/media/fetch-guard';
import { startDohServer, type DohAnswers } from './doh-server';
import { startMediaServer, type MediaRoute, type MediaServer } from './media-server';
import { createTestCa } from './test-ca';

/** The public-looking name webhook receivers answer on in tests. */
const RECEIVER_HOST = 'hooks.receiver.test';

export interface ReceiverWorld {
  receiver: MediaServer;
  /** A guard that reaches the receiver as a public host would be reached (loopback allow-listed). */
  guard: FetchGuard;
  /** `https://hooks.receiver.test:<port><path>`. */
  url(path: string): string;
  close(): Promise<void>;
}

/**
 * An HTTPS webhook receiver on loopback, a DoH server that resolves its name (and any extra
 * names a test wants), and the fetch guard deliveries go through, all on the test CA.
 */
export async function startReceiverWorld(
  routes: Record<string, MediaRoute>,
  extraNames: Exclude<DohAnswers, (...args: never[]) => unknown> = {},
): Promise<ReceiverWorld> {
  const ca = await createTestCa();
  const receiver = await startMediaServer({ routes, names: [RECEIVER_HOST] });
  const doh = await startDohServer({ answers: { [RECEIVER_HOST]: { addresses: ['127.0.0.1'] }, ...extraNames } });
  const guard = createFetchGuard({ allowPrivateCidrs: ['127.0.0.0/8'], dohResolvers: [doh.url], ca: ca.certPem });
  return {
    receiver,
    guard,
    url: (path) => receiver.url(RECEIVER_HOST, path),
    async close() {
      await receiver.close();
      await doh.close();
    },
  };
}
