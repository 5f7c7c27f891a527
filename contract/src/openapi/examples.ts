import { exampleSwap } from '../route-examples';
import { API_PREFIX } from '../router';
import type { AccountSnapshot } from '../schemas/account';
import type { FaceDetectTask } from '../schemas/face-detect';
import type { SwapListPage } from '../schemas/swaps';
import type { WebhookEventType, WebhookPayload } from '../schemas/webhook';

/** Examples of the published schemas; typed by the contract, and the tests parse each. */

export const exampleListPage: SwapListPage = { data: [exampleSwap], next_cursor: exampleSwap.id };

export const exampleAccount: AccountSnapshot = {
  user_id: 'usr_Jx2mQ8rT4vWb6nKp0sLd9A',
  email_verified: true,
  subscription_tier: 'pro',
  credits: { permanent: 120, monthly: 300, subscription: 0, total: 420 },
  rate_limit: { limit: 60, window_seconds: 60, remaining: 59 },
};

export const exampleFaceDetectTask: FaceDetectTask = {
  task_id: 'fdt_Pz7kW1xN5cR3tY9bM2qL6g',
  status: 'done',
  faces_detected: 2,
  faces: [
    { index: 0, bounding_box: { x: 412, y: 188, width: 164, height: 210 } },
    { index: 1, bounding_box: { x: 760, y: 230, width: 150, height: 196 } },
  ],
  error: null,
  created_at: '2025-01-15T10:31:00.000Z',
  completed_at: '2025-01-15T10:31:02.000Z',
};

export const exampleFaceDetectCreated = {
  task_id: exampleFaceDetectTask.task_id,
  status: 'queued',
  poll_url: `${API_PREFIX}/face-detect/${exampleFaceDetectTask.task_id}`,
  note: 'Poll poll_url until status is done or failed.',
};

export const webhookExamples: Record<WebhookEventType, { summary: string; value: WebhookPayload }> = {
  'swap.completed': { summary: 'A swap finished', value: { event: 'swap.completed', ...exampleSwap } },
  'swap.failed': {
    summary: 'A swap failed',
    value: {
      event: 'swap.failed',
      ...exampleSwap,
      status: 'failed',
      progress: 40,
      result_url: null,
      error: 'No face was found in the source image.',
    },
  },
};
