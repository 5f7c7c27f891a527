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
