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

/** Resolves once `holds` answers true (checked every 200 ms); fails with `what` at the deadline. */
export async function eventually(what: string, holds: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`never came true: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** True while storage still holds `key`. */
export const stored = (app: TestApp, key: string) =>
  app.services.storage.get(key).then(
    () => true,
    () => false,
  );
