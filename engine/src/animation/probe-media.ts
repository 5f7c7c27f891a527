import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { probeVideo } from '../video/probe-video';
import { checkGifCaps, checkVideoCaps, DEFAULT_GIF_CAPS, DEFAULT_VIDEO_CAPS, videoFrameBudget, type GifCaps, type VideoCaps } from './caps';
import { gifDurationSeconds, readGifHeader } from './gif-frames';

/** What the server needs at create time: measured size and duration, for caps and pricing. */
export type MediaProbe =
  | { kind: 'gif'; width: number; height: number; frames: number; durationSeconds: number; loop: number }
  | { kind: 'video'; width: number; height: number; frames: number; durationSeconds: number; fps: number; hasAudio: boolean };

export interface ProbeOptions {
  /** Also enforce these caps (defaults when `true`), refusing with `media_too_large`. */
  caps?: { gif?: GifCaps; video?: VideoCaps } | true;
}

const isGif = (bytes: Buffer) => bytes.subarray(0, 4).toString('latin1') === 'GIF8';

/**
 * Measures a GIF (bytes) or a video (bytes or a file path) without decoding its frames: GIFs
 * through sharp's header reading, videos by counting their packets with ffprobe. Video bytes go
 * through a temporary file, since MP4 indexes often sit at the end.
 */
export async function probeMedia(media: Buffer | string, options: ProbeOptions = {}): Promise<MediaProbe> {
  const caps = options.caps === true ? {} : options.caps;
  if (Buffer.isBuffer(media) && isGif(media)) {
    const gif = await readGifHeader(media);
    if (caps) checkGifCaps(gif, caps.gif ?? DEFAULT_GIF_CAPS);
    return { kind: 'gif', width: gif.width, height: gif.height, frames: gif.frames, durationSeconds: gifDurationSeconds(gif.delays), loop: gif.loop };
  }
  const scratch = Buffer.isBuffer(media) ? await mkdtemp(path.join(os.tmpdir(), 'doppel-probe-')) : null;
  try {
    const file = scratch ? path.join(scratch, 'input') : (media as string);
    if (scratch) await writeFile(file, media);
    const videoCaps = caps ? (caps.video ?? DEFAULT_VIDEO_CAPS) : undefined;
    // Counting one packet past the budget is enough to refuse: the rest is never read.
    const video = await probeVideo(file, videoCaps ? { maxPackets: videoFrameBudget(videoCaps) + 1 } : {});
    if (videoCaps) checkVideoCaps(video, videoCaps);
    const { width, height, frames, durationSeconds, fps } = video;
    return { kind: 'video', width, height, frames, durationSeconds, fps, hasAudio: video.audioCodec !== null };
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}
