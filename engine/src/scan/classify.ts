import type { Tensor } from '@tensorflow/tfjs-core';
import { initTf } from '../tf/backend';
import { decodeFrame } from './decode';
import { loadScanModel, MODEL_INPUT_SIZE } from './model';

/** The model's output classes, in the order of its softmax (nsfwjs's `NSFW_CLASSES`). */
export const CONTENT_CLASSES = ['Drawing', 'Hentai', 'Neutral', 'Porn', 'Sexy'] as const;

export type ContentClass = (typeof CONTENT_CLASSES)[number];

/** Probability of each class; the five values sum to 1. */
export type ContentScores = Record<ContentClass, number>;

/** Scores one decoded 224x224 RGB frame. */
export async function classifyPixels(rgb: Uint8Array): Promise<ContentScores> {
  const [tf, model] = await Promise.all([initTf(), loadScanModel()]);
  const output = tf.tidy(() => {
    const image = tf.tensor4d(rgb, [1, MODEL_INPUT_SIZE, MODEL_INPUT_SIZE, 3], 'int32');
    // The network was trained on pixel values scaled to [0, 1].
    return model.predict(tf.div(tf.cast(image, 'float32'), 255)) as Tensor;
  });
  const probabilities = await output.data();
  output.dispose();
  const scores = {} as ContentScores;
  CONTENT_CLASSES.forEach((name, index) => {
    scores[name] = probabilities[index] ?? 0;
  });
  return scores;
}

/** Scores an encoded image (its first frame when animated). */
export async function classifyImage(bytes: Buffer): Promise<{ scores: ContentScores }> {
  return { scores: await classifyPixels(await decodeFrame(bytes)) };
}
