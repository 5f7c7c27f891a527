import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { FaceDetectStatus, MediaKind, SwapStatus, SwapType, WebhookEventType } from '@doppel/contract';
import type { StoredInput, SwapInputs, SwapParams } from './stored-inputs';

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export const creditBuckets = ['subscription', 'monthly', 'permanent'] as const;
export type CreditBucket = (typeof creditBuckets)[number];

export interface UsersTable {
  id: string;
  email: string;
  email_verified: Generated<boolean>;
  subscription_tier: Generated<string>;
  created_at: CreatedAt;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  /** First characters of the key, shown in listings and accepted by `keys revoke`. */
  prefix: string;
  /** Given by the user in the dashboard; null for keys made with the CLI. */
  name: string | null;
  key_hash: Buffer;
  /** The key itself under AES-256-GCM: webhooks are signed with it (spec 5.5). */
  key_ciphertext: Buffer;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface CreditBalancesTable {
  user_id: string;
  subscription: Generated<number>;
  monthly: Generated<number>;
  permanent: Generated<number>;
}

export interface CreditLedgerTable {
  id: Generated<string>;
  user_id: string;
  swap_id: string | null;
  bucket: CreditBucket;
  /** Negative for a charge, positive for a grant or refund. */
  amount: number;
  reason: 'grant' | 'charge' | 'refund';
  created_at: CreatedAt;
}

export interface SwapsTable {
  id: string;
  api_key_id: string;
  user_id: string;
  type: SwapType;
  status: SwapStatus;
  credit_cost: number;
  progress: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
  result_url: string | null;
  error: string | null;
  metadata: Json<Record<string, unknown>> | null;
  webhook_url: string | null;
  params: Json<SwapParams>;
  inputs: Json<SwapInputs>;
  refunded: Generated<boolean>;
  completed_at: Timestamp | null;
  result_key: string | null;
}

export interface FaceDetectTasksTable {
  id: string;
  api_key_id: string;
  status: FaceDetectStatus;
  target: Json<StoredInput>;
  faces: Json<unknown[]> | null;
  faces_detected: number | null;
  error: string | null;
  created_at: CreatedAt;
  completed_at: Timestamp | null;
}

export interface IdempotencyKeysTable {
  api_key_id: string;
  key: string;
  request_hash: string;
  response_status: number | null;
  response_body: Json<unknown> | null;
  created_at: CreatedAt;
  /** The process working on the create (db/instance-liveness.ts); its claim ends when it dies. */
  owner_instance: number | null;
  /** Changed whenever the claim changes hands, so only the current owner can finish it. */
  owner_token: string | null;
}

/** One key's request budget: a ring of its admissions in the window, and the UTC day's count. */
export interface RateLimitBudgetsTable {
  api_key_id: string;
  ring_size: number;
  tail: number;
  in_window: number;
  last_at: Timestamp | null;
  day: string | null;
  day_count: number;
}

export interface RateLimitAdmissionsTable {
  api_key_id: string;
  slot: number;
  at: Timestamp;
}

export interface AuthFailuresTable {
  client: string;
  window_start: Timestamp;
  count: number;
}

export interface SettingsTable {
  name: string;
  value: Json<unknown>;
}

export interface ContentScansTable {
  /** The scan's id: a SHA-256 of the user and the bytes' SHA-256, so verdicts are kept per user. */
  sha256: string;
  status: 'pending' | 'clean' | 'flagged' | 'undecodable' | 'too_large' | 'failed';
  media_kind: MediaKind;
  storage_key: string;
  scores: Json<Record<string, number>> | null;
  reason: string | null;
  created_at: CreatedAt;
  completed_at: Timestamp | null;
  /** When a create last looked the verdict up (to the day); retention drops those unused for long. */
  last_used_at: ColumnType<Date, never, Date>;
}

export interface CreateReservationsTable {
  id: string;
  api_key_id: string;
  created_at: CreatedAt;
  /** The process whose create holds the slot; the slot is free once it is gone. */
  owner_instance: number | null;
}

export type WebhookEventStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEventsTable {
  id: string;
  swap_id: string;
  /** The key that created the swap: its plaintext signs every attempt. */
  api_key_id: string;
  event_type: WebhookEventType;
  url: string;
  /** The JSON body exactly as sent, serialised once. */
  body: string;
  status: Generated<WebhookEventStatus>;
  attempts: Generated<number>;
  created_at: CreatedAt;
  /** When the next scheduled attempt is due; null once none is scheduled. */
  next_attempt_at: Timestamp | null;
  completed_at: Timestamp | null;
}

export interface WebhookAttemptsTable {
  event_id: string;
  attempt: number;
  started_at: Timestamp;
  /** Null when no HTTP response arrived (refused by the guard, network error, timeout). */
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export interface UserPasswordsTable {
  user_id: string;
  /** scrypt, as `scrypt$N$r$p$salt$hash` (base64url). */
  hash: string;
  updated_at: Timestamp;
}

export interface DashboardInvitesTable {
  user_id: string;
  token_hash: Buffer;
  expires_at: Timestamp;
}

export interface DashboardSessionsTable {
  token_hash: Buffer;
  user_id: string;
  csrf_token: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

/** A file one of the user's tasks keeps in storage (an input, a result, a thumbnail). */
export interface StoredFilesTable {
  key: string;
  user_id: string;
  bytes: number;
}

/** The sum of a user's `stored_files`, kept by a trigger on that table. */
export interface StorageUsageTable {
  user_id: string;
  bytes: ColumnType<number, never, never>;
}

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  credit_balances: CreditBalancesTable;
  credit_ledger: CreditLedgerTable;
  swaps: SwapsTable;
  face_detect_tasks: FaceDetectTasksTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limit_budgets: RateLimitBudgetsTable;
  rate_limit_admissions: RateLimitAdmissionsTable;
  auth_failures: AuthFailuresTable;
  settings: SettingsTable;
  content_scans: ContentScansTable;
  create_reservations: CreateReservationsTable;
  webhook_events: WebhookEventsTable;
  webhook_attempts: WebhookAttemptsTable;
  user_passwords: UserPasswordsTable;
  dashboard_invites: DashboardInvitesTable;
  dashboard_sessions: DashboardSessionsTable;
  stored_files: StoredFilesTable;
  storage_usage: StorageUsageTable;
}

export type SwapRow = Selectable<SwapsTable>;
export type NewSwap = Insertable<SwapsTable>;
export type SwapUpdate = Updateable<SwapsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type UserRow = Selectable<UsersTable>;
export type FaceDetectRow = Selectable<FaceDetectTasksTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
