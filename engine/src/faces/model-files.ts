import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as tf from '@tensorflow/tfjs-core';

type TfCore = typeof tf;

const served = new Set<string>();

/**
 * Lets tfjs load graph models from a local folder given as a `file://` URL. Human loads its
 * models through tfjs with URLs built from `modelBasePath`; Node's fetch cannot read `file://`,
 * so instead of patching the global fetch, a tfjs load router answers for this one folder and
 * reads `model.json` and its weight shards from disk. Returns the folder's URL (with a trailing
 * slash) to use as `modelBasePath`.
 */
export function serveModelFolder(tfCore: TfCore, folder: string): string {
  const baseUrl = pathToFileURL(folder + path.sep).href;
  // tfjs refuses a URL that two routers answer for: each folder is served once.
  if (served.has(baseUrl)) return baseUrl;
  served.add(baseUrl);
  const router = (url: string | string[]): tf.io.IOHandler | null =>
    typeof url === 'string' && url.startsWith(baseUrl) ? { load: () => readModel(tfCore, fileURLToPath(url)) } : null;
  // tfjs declares routers as always returning a handler, but skips those that return null.
  tfCore.io.registerLoadRouter(router as Parameters<TfCore['io']['registerLoadRouter']>[0]);
  return baseUrl;
}

async function readModel(tfCore: TfCore, modelFile: string): Promise<tf.io.ModelArtifacts> {
  const modelJson = JSON.parse(await readFile(modelFile, 'utf8')) as tf.io.ModelJSON;
  const folder = path.dirname(modelFile);
  return tfCore.io.getModelArtifactsForJSON(modelJson, async (manifest) => {
    const specs = manifest.flatMap((group) => group.weights);
    const shards = await Promise.all(manifest.flatMap((group) => group.paths).map((shard) => readFile(path.join(folder, shard))));
    const weights = Buffer.concat(shards);
    return [specs, weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength)];
  });
}
