import { createRequire } from 'node:module';
import path from 'node:path';
import type { io } from '@tensorflow/tfjs-core';
import { loadLayersModel, type LayersModel } from '@tensorflow/tfjs-layers';
import { initTf } from '../tf/backend';

const require = createRequire(import.meta.url);

/** Side of the square RGB input the MobileNetV2 classifier was trained on. */
export const MODEL_INPUT_SIZE = 224;

/**
 * nsfwjs 4.4.0 ships each model as browserify UMD bundles in `dist/models/<name>/`:
 * `model.min.js` exports the Keras model.json object and `group1-shard<i>of<n>.min.js` exports
 * one weight shard as a base64 string. The package's `exports` map hides that folder, so it is
 * found from the resolved CommonJS entry (`dist/cjs/index.js`). MobileNetV2 is used, not
 * MobileNetV2Mid, which labels ordinary photos as "Drawing".
 */
const MODEL_DIR = path.join(path.dirname(require.resolve('nsfwjs')), '..', 'models', 'mobilenet_v2');

interface KerasModelJson {
  modelTopology: object;
  weightsManifest: { paths: string[]; weights: io.WeightsManifestEntry[] }[];
}

/**
 * Decodes the bundled weights directly and hands them to tfjs as in-memory artifacts: ~0.5 s,
 * where nsfwjs's own loader spends 8-60 s converting base64 through a binary string.
 */
function readArtifacts(): io.ModelArtifacts {
  const modelJson = require(path.join(MODEL_DIR, 'model.min.js')) as KerasModelJson;
  const weightSpecs: io.WeightsManifestEntry[] = [];
  const shards: Buffer[] = [];
  for (const group of modelJson.weightsManifest) {
    for (const shard of group.paths) {
      const base64 = require(path.join(MODEL_DIR, `${shard}.min.js`)) as string;
      shards.push(Buffer.from(base64, 'base64'));
    }
    weightSpecs.push(...group.weights);
  }
  const weights = Buffer.concat(shards);
  return {
    modelTopology: modelJson.modelTopology,
    weightSpecs,
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  };
}

let loading: Promise<LayersModel> | undefined;

/**
 * The classifier, loaded once per thread and warmed up with one prediction so that the first
 * real image does not pay for kernel compilation. A failed load is not cached.
 */
export function loadScanModel(): Promise<LayersModel> {
  loading ??= (async () => {
    const tf = await initTf();
    const model = await loadLayersModel(tf.io.fromMemory(readArtifacts()));
    tf.tidy(() => model.predict(tf.zeros([1, MODEL_INPUT_SIZE, MODEL_INPUT_SIZE, 3])));
    return model;
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
