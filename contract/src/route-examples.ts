import type { CreateFaceDetectBody } from './schemas/face-detect';
import type { CreateSwapBody, PublicSwap } from './schemas/swaps';

/** Examples shown in the OpenAPI document; typed by the contract, and the tests parse each. */

export const exampleSwap: PublicSwap = {
  id: 'swp_3q9XcM7vTf2LkR8bNw1YzA',
  type: 'image',
  status: 'done',
  credit_cost: 1,
  progress: 100,
  created_at: '2025-01-15T10:30:00.000Z',
  result_url: 'https://media.example.com/results/Jd8fK2mQz7LwX0vB4nRt1c/swp_3q9XcM7vTf2LkR8bNw1YzA.jpg',
  error: null,
  metadata: { order_id: '1042' },
  webhook_url: 'https://hooks.example.com/doppel',
};

/** A create answers a queued swap. */
export const exampleQueuedSwap: PublicSwap = { ...exampleSwap, status: 'queued', progress: 0, result_url: null };

export const createSwapExamples: Record<string, { summary: string; value: CreateSwapBody }> = {
  image: {
    summary: 'Image swap',
    value: {
      type: 'image',
      source_url: 'https://media.example.com/faces/alice.jpg',
      target_url: 'https://media.example.com/targets/poster.jpg',
      webhook_url: 'https://hooks.example.com/doppel',
      metadata: { order_id: '1042' },
    },
  },
  multi_face_image: {
    summary: 'Two faces in one image',
    value: {
      type: 'multi_face_image',
      target_url: 'https://media.example.com/targets/team.jpg',
      face_swaps: [
        { face_index: 0, source_url: 'https://media.example.com/faces/alice.jpg' },
        { face_index: 1, source_url: 'https://media.example.com/faces/bob.jpg', enable_face_enhancer: true },
      ],
    },
  },
  gif: {
    summary: 'GIF swap',
    value: {
      type: 'gif',
      source_url: 'https://media.example.com/faces/alice.jpg',
      target_url: 'https://media.example.com/targets/dance.gif',
      reference_frame_time_seconds: 0.5,
    },
  },
  video: {
    summary: 'Video swap, two faces',
    value: {
      type: 'video',
      target_url: 'https://media.example.com/targets/clip.mp4',
      keep_audio: true,
      face_swaps: [
        { frame_time_seconds: 1.2, face_index: 0, source_url: 'https://media.example.com/faces/alice.jpg' },
        { frame_time_seconds: 1.2, face_index: 1, source_url: 'https://media.example.com/faces/bob.jpg' },
      ],
    },
  },
};

export const createFaceDetectExamples: Record<string, { summary: string; value: CreateFaceDetectBody }> = {
  image: { summary: 'Detect faces', value: { target_url: 'https://media.example.com/targets/team.jpg' } },
};
