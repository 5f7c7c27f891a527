/**
 * The media the API reads and writes, by the kind sniffed from their bytes: the MIME type named
 * in responses and errors, and the file extension of stored copies and results.
 */
export const MEDIA_KINDS = {
  jpeg: { mimeType: 'image/jpeg', extension: 'jpg', video: false },
  png: { mimeType: 'image/png', extension: 'png', video: false },
  webp: { mimeType: 'image/webp', extension: 'webp', video: false },
  gif: { mimeType: 'image/gif', extension: 'gif', video: false },
  mp4: { mimeType: 'video/mp4', extension: 'mp4', video: true },
  mov: { mimeType: 'video/quicktime', extension: 'mov', video: true },
  webm: { mimeType: 'video/webm', extension: 'webm', video: true },
} as const;

export type MediaKind = keyof typeof MEDIA_KINDS;

export const mimeTypeOf = (kind: MediaKind): string => MEDIA_KINDS[kind].mimeType;
export const extensionOf = (kind: MediaKind): string => MEDIA_KINDS[kind].extension;
export const isVideoKind = (kind: MediaKind): boolean => MEDIA_KINDS[kind].video;

/** The kind a stored file's extension stands for, or null for any other file. */
export function mediaKindOfExtension(extension: string): MediaKind | null {
  const kinds = Object.keys(MEDIA_KINDS) as MediaKind[];
  return kinds.find((kind) => MEDIA_KINDS[kind].extension === extension) ?? null;
}
