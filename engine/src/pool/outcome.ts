import { EngineError, type EngineErrorReason } from '../faces/engine-error';

/**
 * A task's result as it crosses the thread boundary. Structured cloning keeps an error's message
 * but drops its fields, so the engine's refusals travel as values and are rebuilt on arrival.
 */
export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: EngineErrorReason; message: string };

export async function capture<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof EngineError) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}

export function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  throw new EngineError(outcome.reason, outcome.message);
}
