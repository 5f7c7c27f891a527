import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('..', import.meta.url)) });

/** The boundary messages ESLint gives for one import line in a file at `filePath`. */
async function refusals(filePath: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`export * from '${specifier}';\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries between the workspace packages', () => {
  it.each([
    ['contract/src/router.ts', '@doppel/server'],
    ['contract/src/router.ts', '../../worker/src/index'],
    ['sdk/src/client.ts', '@doppel/server'],
    ['sdk/src/client.ts', '../../contract/src/index'],
    ['worker/src/index.ts', '@doppel/server'],
    ['worker/src/index.ts', '../../server/src/jobs/compute'],
    ['worker/src/faces/detect.ts', '@doppel/server'],
    ['worker/src/faces/detect.ts', '../index'],
    ['worker/src/faces/detect.ts', '../jobs/swap-job'],
    ['server/src/jobs/compute.ts', '@doppel/worker/src/pool/compute-pool'],
    ['server/src/jobs/compute.ts', '../../../worker/src/index'],
    ['server/src/jobs/compute.ts', '@doppel/sdk'],
    ['server/test/engine/swap.test.ts', '../../../worker/src/pool/compute-pool'],
    ['examples/create-and-wait.ts', '@doppel/contract'],
    ['examples/test/create-and-wait.test.ts', '../../server/src/app'],
  ])('refuses in %s the import %s', async (filePath, specifier) => {
    expect(await refusals(filePath, specifier)).toHaveLength(1);
  });

  it.each([
    ['contract/src/router.ts', './schemas/swaps'],
    ['sdk/src/client.ts', '@doppel/contract'],
    ['worker/src/faces/detect.ts', '../swap/swap-image'],
    ['worker/src/faces/detect.ts', '@doppel/contract'],
    ['worker/src/index.ts', './pool/compute-pool'],
    ['server/src/jobs/compute.ts', '@doppel/worker'],
    ['server/src/ops/api-docs.ts', '@doppel/contract/openapi'],
    ['server/test/webhooks/receiver.ts', '@doppel/sdk'],
    ['server/test/engine/animated.test.ts', '../../../worker/test/animation/pan-clip'],
    ['examples/create-and-wait.ts', '@doppel/sdk'],
    ['examples/test/create-and-wait.test.ts', '../../server/test/support/app'],
  ])('lets %s import %s', async (filePath, specifier) => {
    expect(await refusals(filePath, specifier)).toEqual([]);
  });
});
