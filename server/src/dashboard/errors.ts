import { dashboardErrorStatusByCode, type DashboardErrorCode, type DashboardError } from '@doppel/contract/dashboard';
import type { FastifyInstance } from 'fastify';

/** An error of the dashboard's own endpoints (sessions, CSRF, invites), in the API's envelope. */
export class DashboardApiError extends Error {
  readonly code: DashboardErrorCode;
  readonly headers: Record<string, string>;

  constructor(code: DashboardErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'DashboardApiError';
    this.code = code;
    this.headers = headers;
  }

  get status(): number {
    return dashboardErrorStatusByCode[this.code];
  }

  toEnvelope(requestId: string): DashboardError {
    return { error: { code: this.code, message: this.message, request_id: requestId } };
  }
}

/** Same answer for a foreign id as for a missing one, whatever kind of id it is. */
export const notFound = (what: string) => new DashboardApiError('not_found', `No ${what} with this id exists.`);

/** Answers DashboardApiError here; everything else goes on to the app's envelope handler. */
export function answerDashboardErrors(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (!(error instanceof DashboardApiError)) return reply.send(error);
    return reply.status(error.status).headers(error.headers).send(error.toEnvelope(request.id));
  });
}
