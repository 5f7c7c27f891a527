import { DetectedFaceSchema, type FaceDetectTask } from '@doppel/contract';
import type { Insertable } from 'kysely';
import type { Db } from '../db/connect';
import type { FaceDetectRow, FaceDetectTasksTable } from '../db/schema';

export async function insertFaceDetectTask(db: Db, task: Insertable<FaceDetectTasksTable>): Promise<FaceDetectRow> {
  return db.insertInto('face_detect_tasks').values(task).returningAll().executeTakeFirstOrThrow();
}

/** The task with this id if the key created it; another key's task is as absent as a missing one. */
export function findFaceDetectTask(db: Db, apiKeyId: string, id: string): Promise<FaceDetectRow | undefined> {
  return db
    .selectFrom('face_detect_tasks')
    .selectAll()
    .where('id', '=', id)
    .where('api_key_id', '=', apiKeyId)
    .executeTakeFirst();
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

const FacesSchema = DetectedFaceSchema.array();

/** A stored face detection as the API shows it (spec 2.3). */
export function toFaceDetectTask(row: FaceDetectRow): FaceDetectTask {
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
