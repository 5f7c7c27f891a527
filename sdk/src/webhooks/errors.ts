import { DoppelError } from '../core/errors';

export type WebhookVerificationFailure =
  | 'malformed_header'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'no_matching_signature'
  | 'body_not_raw'
  | 'invalid_payload';

/** The delivery cannot be trusted or used; answer it with 401 (400 for `invalid_payload`). */
export class WebhookVerificationError extends DoppelError {
  override name = 'WebhookVerificationError';
  readonly reason: WebhookVerificationFailure;

  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}
