import { extensionOf, type MediaKind } from '@doppel/contract';
import { randomToken } from '../random-token';

/** An input copied at create time: `inputs/<task id>/<role>-<random>.<ext>`. */
export function inputKey(taskId: string, role: string, kind: MediaKind): string {
  return `inputs/${taskId}/${role}-${randomToken(6)}.${extensionOf(kind)}`;
}

/** A swap's result, behind a random folder so the URL cannot be derived from the task id. */
export function resultKey(taskId: string, kind: MediaKind): string {
  return `results/${randomToken(16)}/${taskId}.${extensionOf(kind)}`;
}

/** Bytes awaiting their content scan, named by the scan's id (one scan per user and bytes). */
export const scanKey = (sha256: string, kind: MediaKind) => `scans/${sha256}.${extensionOf(kind)}`;

/**
 * A task input's thumbnail, kept after the input is deleted: `thumbs/<task id>/<role>.jpg`.
 * Private like inputs (only `results/` is served publicly), so a derivable name is safe.
 */
export const thumbnailKey = (taskId: string, role: string) => `thumbs/${taskId}/${role}.jpg`;
