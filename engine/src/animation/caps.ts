import { EngineError } from '../faces/engine-error';

/**
 * Limits checked before any frame is processed, so that one task cannot hold a worker thread for
 * long. The defaults are documented in docs/video.md; callers may pass their own.
 */
export interface GifCaps {
  maxFrames: number;
  maxWidth: number;
  maxHeight: number;
  /** All frames together: a GIF is held decoded in memory (4 bytes per pixel, twice). */
  maxTotalPixels: number;
}

export interface VideoCaps {
  maxDurationSeconds: number;
  maxWidth: number;
  maxHeight: number;
  maxFps: number;
}

export const DEFAULT_GIF_CAPS: GifCaps = { maxFrames: 500, maxWidth: 1024, maxHeight: 1024, maxTotalPixels: 100_000_000 };

export const DEFAULT_VIDEO_CAPS: VideoCaps = { maxDurationSeconds: 120, maxWidth: 1920, maxHeight: 1080, maxFps: 60 };

export function checkGifCaps(gif: { width: number; height: number; frames: number }, caps: GifCaps = DEFAULT_GIF_CAPS): void {
  const problems: string[] = [];
  if (gif.frames > caps.maxFrames) problems.push(`${gif.frames} frames (at most ${caps.maxFrames})`);
  if (gif.width > caps.maxWidth || gif.height > caps.maxHeight) {
    problems.push(`${gif.width}x${gif.height} px frames (at most ${caps.maxWidth}x${caps.maxHeight})`);
  }
  const total = gif.width * gif.height * gif.frames;
  if (total > caps.maxTotalPixels) problems.push(`${(total / 1e6).toFixed(1)} megapixels in all (at most ${caps.maxTotalPixels / 1e6})`);
  if (problems.length > 0) throw new EngineError('media_too_large', `GIF is too large: ${problems.join(', ')}`);
}

/** Frames a video within the caps can hold: its longest duration at its highest rate. */
export const videoFrameBudget = (caps: VideoCaps): number => Math.ceil(caps.maxDurationSeconds * caps.maxFps);

/**
 * Duration and frames are the measured ones (`probeVideo` counts packets), so a header that
 * understates the length does not get a long video past the caps.
 * Width and height are compared as a landscape pair against a landscape limit, so a portrait
 * 1080x1920 clip passes a 1920x1080 cap.
 */
export function checkVideoCaps(
  video: { width: number; height: number; fps: number; durationSeconds: number; frames: number; truncated: boolean },
  caps: VideoCaps = DEFAULT_VIDEO_CAPS,
): void {
  const problems: string[] = [];
  if (video.durationSeconds > caps.maxDurationSeconds) {
    problems.push(`${video.truncated ? 'over ' : ''}${video.durationSeconds.toFixed(1)} s long (at most ${caps.maxDurationSeconds} s)`);
  }
  const maxFrames = videoFrameBudget(caps);
  if (video.truncated || video.frames > maxFrames) problems.push(`${video.truncated ? 'over ' : ''}${video.frames} frames (at most ${maxFrames})`);
  const [long, short] = [Math.max(video.width, video.height), Math.min(video.width, video.height)];
  if (long > Math.max(caps.maxWidth, caps.maxHeight) || short > Math.min(caps.maxWidth, caps.maxHeight)) {
    problems.push(`${video.width}x${video.height} px (at most ${caps.maxWidth}x${caps.maxHeight})`);
  }
  if (video.fps > caps.maxFps) problems.push(`${video.fps.toFixed(2)} fps (at most ${caps.maxFps})`);
  if (problems.length > 0) throw new EngineError('media_too_large', `video is too large: ${problems.join(', ')}`);
}
