import { DetectedFaceSchema, type DetectedFace, type FaceDetectStatus, type FaceDetectTask } from '@doppel/contract';
import { sql, type Insertable } from 'kysely';
import { PREPARED, type Db } from '../db/connect';
import type { FaceDetectRow, FaceDetectTasksTable } from '../db/schema';
import type { StoredInput } from '../db/stored-inputs';

// The one module that reads and writes the `face_detect_tasks` table (docs/architecture.md).

/** A new task row: the create's (in its transaction), and tests' rows through the same call. */
export async function insertFaceDetectTask(db: Db, task: Insertable<FaceDetectTasksTable>): Promise<FaceDetectRow> {
  return db.insertInto('face_detect_tasks').values(task).returningAll().executeTakeFirstOrThrow();
}

/** The columns a face detection is shown with. */
const FACE_DETECT_TASK_COLUMNS = ['id', 'status', 'faces_detected', 'faces', 'error', 'created_at', 'completed_at'] as const satisfies readonly (keyof FaceDetectRow)[];

export type FaceDetectTaskRow = Pick<FaceDetectRow, (typeof FACE_DETECT_TASK_COLUMNS)[number]>;

/**
 * The statement that reads the task with this id if the key created it, as far as it is shown;
 * another key's task is as absent as a missing one. Prepared: GET /face-detect/{taskId} runs it
 * inside the request's spend, its only round trip.
 */
export function findFaceDetectTaskQuery(db: Db, apiKeyId: string, id: string) {
  return db
    .selectFrom('face_detect_tasks')
    .modifyFront(PREPARED)
    .select(FACE_DETECT_TASK_COLUMNS)
    .where('id', '=', id)
    .where('api_key_id', '=', apiKeyId);
}

/** The user's latest tasks, newest first, over all of the user's keys (dashboard). */
export function listUserFaceDetectTasks(db: Db, userId: string, limit: number): Promise<FaceDetectRow[]> {
  return db
    .selectFrom('face_detect_tasks')
    .selectAll('face_detect_tasks')
    .innerJoin('api_keys', 'api_keys.id', 'face_detect_tasks.api_key_id')
    .where('api_keys.user_id', '=', userId)
    .orderBy('face_detect_tasks.created_at', 'desc')
    .orderBy('face_detect_tasks.id', 'desc')
    .limit(limit)
    .execute();
}

/** The task with this id if one of the user's keys created it; otherwise as absent as a missing one. */
export function findUserFaceDetectTask(db: Db, userId: string, id: string): Promise<FaceDetectRow | undefined> {
  return db
    .selectFrom('face_detect_tasks')
    .selectAll('face_detect_tasks')
    .innerJoin('api_keys', 'api_keys.id', 'face_detect_tasks.api_key_id')
    .where('face_detect_tasks.id', '=', id)
    .where('api_keys.user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * The job's pick-up: queued (or processing, for a retried job) -> processing, with the stored
 * target; undefined when the task has ended meanwhile.
 */
export function startFaceDetection(db: Db, id: string): Promise<{ id: string; target: StoredInput; api_key_id: string } | undefined> {
  return db
    .updateTable('face_detect_tasks')
    .set({ status: 'processing' })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'processing'])
    .returning(['id', 'target', 'api_key_id'])
    .executeTakeFirst();
}

/** processing -> done with the faces found, or failed with an error. */
export async function finishFaceDetection(
  db: Db,
  id: string,
  outcome: { status: 'done'; faces: DetectedFace[] } | { status: 'failed'; error: string },
): Promise<void> {
  const faces = outcome.status === 'done' ? outcome.faces : undefined;
  await db
    .updateTable('face_detect_tasks')
    .set({
      status: outcome.status,
      faces: faces ? JSON.stringify(faces) : null,
      faces_detected: faces?.length ?? null,
      error: outcome.status === 'failed' ? outcome.error : null,
      completed_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .execute();
}

/** Fails a task that has not ended (its job ran out of attempts). */
export async function failFaceDetection(db: Db, id: string, error: string): Promise<void> {
  await db
    .updateTable('face_detect_tasks')
    .set({ status: 'failed', error, completed_at: new Date() })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'processing'])
    .execute();
}

/** Ended tasks created more than `days` days ago, a batch at a time (retention). */
export function endedFaceDetectionsOlderThan(db: Db, days: number, limit: number): Promise<{ id: string; target: StoredInput }[]> {
  return db
    .selectFrom('face_detect_tasks')
    .select(['id', 'target'])
    .where('created_at', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .where('status', 'in', ['done', 'failed'])
    .limit(limit)
    .execute();
}

export async function deleteFaceDetectTasks(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('face_detect_tasks').where('id', 'in', ids).execute();
}

/** How many tasks are kept, by status (metrics). */
export async function countFaceDetectTasks(db: Db): Promise<{ status: FaceDetectStatus; count: number }[]> {
  const rows = await db
    .selectFrom('face_detect_tasks')
    .select(['status', (eb) => eb.fn.countAll<string>().as('count')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

const FacesSchema = DetectedFaceSchema.array();

/** A stored face detection as the API shows it (spec 2.3). */
export function toFaceDetectTask(row: FaceDetectTaskRow): FaceDetectTask {
  return {
    task_id: row.id,
    status: row.status,
    faces_detected: row.faces_detected,
    faces: row.faces === null ? null : FacesSchema.parse(row.faces),
    error: row.error,
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
  };
}
