import type { FaceDetectTask, PublicSwap } from '@doppel/contract';
import type { queues } from './boss';

/**
 * What each queue's jobs carry, next to the queue names: `sendJob` takes the payload of the queue
 * it sends to, and a handler receives the payload of the queue it consumes. Ids are typed from
 * the contract's resources; a dead-letter queue receives the payload of the job that died.
 */
export interface SwapJob {
  swapId: PublicSwap['id'];
}

export interface FaceDetectJob {
  taskId: FaceDetectTask['task_id'];
}

export interface ContentScanJob {
  /** The scan's id (`content_scans.sha256`): a SHA-256 (hex) of the user and the bytes' own SHA-256. */
  sha256: string;
}

/**
 * One webhook delivery attempt. `step` is the position in the retry schedule for automatic
 * attempts (0 for the first); null marks an operator's redelivery, which stands outside the schedule.
 */
export interface WebhookJob {
  eventId: string;
  step: number | null;
}

/** Scheduled housekeeping carries nothing. */
export type MaintenanceJob = object;

type Queues = typeof queues;

interface Payloads {
  swap: SwapJob;
  swapDead: SwapJob;
  faceDetect: FaceDetectJob;
  faceDetectDead: FaceDetectJob;
  maintenance: MaintenanceJob;
  contentScan: ContentScanJob;
  webhook: WebhookJob;
}

/** The payload of each queue, by queue name; a queue added without one fails to compile here. */
export type QueuePayloads = { [K in keyof Queues as Queues[K]['name']]: Payloads[K] };
