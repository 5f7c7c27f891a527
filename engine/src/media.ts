// The engine's light entry (`@doppel/engine/media`): header probes, thumbnails and the ffmpeg
// check, on sharp and ffprobe alone. The API imports only this, so a process that serves
// requests never loads the models (tfjs, Human, nsfwjs) that `@doppel/engine` brings in.
export { EngineError, type EngineErrorReason } from './faces/engine-error';
export { probeImage, type ImageProbe } from './faces/probe-image';
export { probeMedia, type MediaProbe, type ProbeOptions } from './animation/probe-media';
export { DEFAULT_GIF_CAPS, DEFAULT_VIDEO_CAPS, type GifCaps, type VideoCaps } from './animation/caps';
export { ffmpegAvailable, ffprobePath, requireFfmpeg } from './video/ffmpeg';
export { makeThumbnail, THUMBNAIL_SIZE, type ThumbnailBox } from './thumbnails/make-thumbnail';
