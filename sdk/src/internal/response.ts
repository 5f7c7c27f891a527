import { apiErrorFromResponse } from '../core/errors';

interface ContractResponse {
  status: number;
  body: unknown;
  headers: Headers;
}

/** The body of the expected success status, or the typed error for anything else. */
export function expectStatus<R extends ContractResponse, S extends R['status']>(
  response: R,
  status: S,
): Extract<R, { status: S }>['body'] {
  if (response.status === status) return response.body as Extract<R, { status: S }>['body'];
  throw apiErrorFromResponse(response.status, response.body, response.headers);
}
