import { z } from 'zod';

export const TASK_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export const TaskIdSchema = z
  .string()
  .regex(TASK_ID_PATTERN, 'must match [A-Za-z0-9_-]{1,64}')
  .describe('Task identifier.');

export const TaskIdParamsSchema = z.object({ taskId: TaskIdSchema });
