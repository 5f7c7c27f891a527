export { ComputePool, type ComputePoolOptions } from './pool/compute-pool';
export type { MediaKind } from './pool/tasks';
export { DEFAULT_SCAN_THRESHOLDS, type ScanThresholds, type ScanVerdict } from './scan/verdict';
export { ffmpegAvailable, ffprobePath } from './video/ffmpeg';
