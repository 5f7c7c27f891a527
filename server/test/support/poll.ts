import type { FaceDetectTask, PublicSwap } from '@doppel/contract';
import type { TestApp } from './app';

const POLL_MS = 200;

/**
 * Polls a GET endpoint of the test app, as an integrator would, until `until` holds for the
 * body; fails with the last body when the deadline passes.
 */
export async function pollUntil<T>(
  app: TestApp,
  key: string,
  path: string,
  until: (body: T) => boolean,
  timeoutMs = 120_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = (await app.request(path, { key })).body as T;
    if (until(body)) return body;
    if (Date.now() > deadline) throw new Error(`${path} never reached the awaited state: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const TERMINAL = ['done', 'failed', 'canceled'];

/** The swap once it is done, failed or canceled. */
export const finishedSwap = (app: TestApp, key: string, id: string, onPoll?: (swap: PublicSwap) => void) =>
  pollUntil(app, key, `/api/v1/swaps/${id}`, (s: PublicSwap) => {
    onPoll?.(s);
    return TERMINAL.includes(s.status);
  });

/** The face-detect task once it is done or failed. */
export const finishedDetection = (app: TestApp, key: string, id: string) =>
  pollUntil(app, key, `/api/v1/face-detect/${id}`, (s: FaceDetectTask) => TERMINAL.includes(s.status));

/**
 * Asks `probe` again every few milliseconds until it answers true; fails when `withinMs` has
 * passed first. For changes that reach other processes by notification, or happen after a task
 * has ended (its inputs retired).
 */
export async function eventually(what: string, probe: () => Promise<boolean>, withinMs = 60_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** True while storage still holds `key`. */
export const stored = (app: TestApp, key: string) =>
  app.services.storage.get(key).then(
    () => true,
    () => false,
  );
