import { z } from 'zod';
import { TaskIdSchema } from './ids';
import { HttpsUrlSchema } from './url';

export const faceDetectStatuses = ['queued', 'processing', 'done', 'failed'] as const;
export const FaceDetectStatusSchema = z.enum(faceDetectStatuses);
export type FaceDetectStatus = z.infer<typeof FaceDetectStatusSchema>;

export const CreateFaceDetectBodySchema = z
  .object({ target_url: HttpsUrlSchema.describe('Public HTTPS URL of the image to search for faces.') })
  .strict();
export type CreateFaceDetectBody = z.infer<typeof CreateFaceDetectBodySchema>;

export const FaceDetectCreatedSchema = z.object({
  task_id: TaskIdSchema,
  status: z.literal('queued'),
  poll_url: z.string().describe('Path to poll: /api/v1/face-detect/{taskId}.'),
  note: z.string(),
});

export const BoundingBoxSchema = z
  .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .describe('Pixels of the image as displayed (EXIF orientation applied); x, y is the top-left corner.');

export const DetectedFaceSchema = z.object({
  index: z.number().int().min(0).describe('Position in detection order; use as face_index / target_face_index.'),
  bounding_box: BoundingBoxSchema,
});

export const FaceDetectTaskSchema = z
  .object({
    task_id: TaskIdSchema,
    status: FaceDetectStatusSchema,
    faces_detected: z.number().int().min(0).nullable(),
    faces: z.array(DetectedFaceSchema).nullable(),
    error: z.string().nullable(),
    created_at: z.string().datetime().nullable(),
    completed_at: z.string().datetime().nullable(),
  })
  .describe('A face-detection task.');

export type FaceDetectTask = z.infer<typeof FaceDetectTaskSchema>;
export type DetectedFace = z.infer<typeof DetectedFaceSchema>;
