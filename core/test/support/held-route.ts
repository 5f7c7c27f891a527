import type { MediaRoute } from './media-server';

export interface HeldRoute {
  route: MediaRoute;
  /** How many requests are being held right now. */
  readonly held: number;
  /** Answers every held request, and every later one at once. */
  release(): void;
}

/** A media route that keeps each request waiting until released: a create stays in flight. */
export function holdUntilReleased(answer: MediaRoute): HeldRoute {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  return {
    route: (req, res, body) => {
      held++;
      void released.then(() => {
        held--;
        answer(req, res, body);
      });
    },
    get held() {
      return held;
    },
    release,
  };
}

/** Resolves once `condition` holds, checking it every few milliseconds. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
