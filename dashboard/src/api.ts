import { initClient } from '@ts-rest/core';
import { CSRF_HEADER, dashboardContract, type DashboardError } from '@doppel/contract/dashboard';

let csrfToken = '';

/** The session's CSRF token, sent on every request (the server checks it on state changes). */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** The one typed client of the dashboard's endpoints, derived from the contract. */
export const api = initClient(dashboardContract, {
  baseUrl: '',
  baseHeaders: { [CSRF_HEADER]: () => csrfToken },
  credentials: 'same-origin',
  throwOnUnknownStatus: true,
});

export class RequestFailed extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The body of a 2xx answer; anything else becomes a RequestFailed with the envelope's code and message. */
export async function ok<R extends { status: number; body: unknown }>(
  call: Promise<R>,
): Promise<Extract<R, { status: 200 | 201 | 202 | 204 }>['body']> {
  const response = await call;
  if (response.status >= 200 && response.status < 300) return response.body as Extract<R, { status: 200 | 201 | 202 | 204 }>['body'];
  const envelope = response.body as DashboardError;
  throw new RequestFailed(response.status, envelope.error.code, envelope.error.message);
}
