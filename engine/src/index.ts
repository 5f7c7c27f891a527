export { ComputePool, swapWithProgress, type ComputePoolOptions } from './pool/compute-pool';
export type { SwapTask } from './pool/tasks';
export type { SwapImageResult } from './swap/swap-image';
export { DEFAULT_SCAN_THRESHOLDS, type ScanThresholds, type ScanVerdict } from './scan/verdict';
export type { FaceDescription } from './faces/describe-faces';
export { unwrap } from './pool/outcome';
export type { GifTask } from './pool/tasks';
export { swapGif, type SwapGifInput, type SwapGifResult } from './animation/swap-gif';
export { swapVideo, type FaceSwapItem, type SwapVideoInput, type SwapVideoResult } from './video/swap-video';
export { swapGifOnPool, swapVideoOnPool, type VideoSwapRequest } from './animation/run-on-pool';
// What the API may import alone, without the models.
export * from './media';
