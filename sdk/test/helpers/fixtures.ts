import type { FaceDetectTask, PublicSwap } from '@doppel/contract';

export function swap(overrides: Partial<PublicSwap> = {}): PublicSwap {
  return {
    id: 'swp_1',
    type: 'image',
    status: 'queued',
    credit_cost: 1,
    progress: 0,
    created_at: '2025-01-01T00:00:00.000Z',
    result_url: null,
    error: null,
    metadata: null,
    webhook_url: null,
    ...overrides,
  };
}

export function faceDetectTask(overrides: Partial<FaceDetectTask> = {}): FaceDetectTask {
  return {
    task_id: 'fd_1',
    status: 'queued',
    faces_detected: null,
    faces: null,
    error: null,
    created_at: '2025-01-01T00:00:00.000Z',
    completed_at: null,
    ...overrides,
  };
}

export const imageSwap = {
  type: 'image',
  source_url: 'https://media.example.com/face.jpg',
  target_url: 'https://media.example.com/target.jpg',
} as const;
