import type { FastifyInstance } from 'fastify';
import { ApiError } from '@doppel/core/errors';

/** What a caller is told to wait before retrying against another (or the restarted) process. */
const DRAINING_RETRY_AFTER_SECONDS = 5;

/**
 * The HTTP side of a graceful shutdown. Once `begin()` is called, every new request is answered
 * 503 api_temporarily_disabled (the connection is closed after it) while requests already
 * running carry on; `endWaits()` later ends long polls (wait=true, a busy Idempotency-Key),
 * which then answer with what they have.
 */
export class Drain {
  private readonly waits = new AbortController();
  private started = false;

  get draining(): boolean {
    return this.started;
  }

  /** Aborted when the waits must end, so they answer before the process goes. */
  get waitsEnded(): AbortSignal {
    return this.waits.signal;
  }

  begin(): void {
    this.started = true;
  }

  endWaits(): void {
    this.waits.abort();
  }
}

export function refuseNewRequestsWhileDraining(app: FastifyInstance, drain: Drain): void {
  // Requests that were already running answer normally, but their keep-alive connection ends.
  app.addHook('onSend', async (_request, reply) => {
    if (drain.draining) reply.header('connection', 'close');
  });
  app.addHook('onRequest', async () => {
    if (!drain.draining) return;
    throw new ApiError('api_temporarily_disabled', 'The server is shutting down; retry shortly.', {
      headers: { 'retry-after': String(DRAINING_RETRY_AFTER_SECONDS) },
    });
  });
}
