export { ComputePool, swapWithProgress, type ComputePoolOptions } from './pool/compute-pool';
export type { MediaKind, SwapTask } from './pool/tasks';
export type { SwapImageResult } from './swap/swap-image';
export { DEFAULT_SCAN_THRESHOLDS, type ScanThresholds, type ScanVerdict } from './scan/verdict';
export { ffmpegAvailable, ffprobePath } from './video/ffmpeg';
export { EngineError, type EngineErrorReason } from './faces/engine-error';
export type { FaceDescription } from './faces/describe-faces';
export { unwrap } from './pool/outcome';
