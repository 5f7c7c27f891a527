import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: fileURLToPath(new URL('..', import.meta.url)) });

/** The boundary messages ESLint gives for one import line in a file at `filePath`. */
async function refusals(filePath: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`export * from '${specifier}';\n`, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'doppel/import-boundaries').map((m) => m.message);
}

describe('import boundaries between the workspace packages', () => {
  // The first lint loads the configuration and its plugins: 6 s on a busy CI machine, past a
  // test's 5 s, so it is done here and each test lints one line.
  beforeAll(async () => {
    await refusals('contract/src/router.ts', './schemas/swaps');
  }, 60_000);

  it.each([
    // The contract imports nothing of ours.
    ['contract/src/router.ts', '@doppel/core/errors'],
    ['contract/src/router.ts', '../../engine/src/index'],
    // The SDK imports only the contract.
    ['sdk/src/client.ts', '@doppel/server'],
    ['sdk/src/client.ts', '../../contract/src/index'],
    // The engine imports nothing of core, server, worker or launcher.
    ['engine/src/faces/detect-faces.ts', '@doppel/core/db/connect'],
    ['engine/src/faces/detect-faces.ts', '@doppel/worker'],
    ['engine/src/index.ts', '../../worker/src/jobs/compute'],
    // core is below server and worker.
    ['core/src/tasks/swaps.ts', '@doppel/server'],
    ['core/src/tasks/swaps.ts', '@doppel/worker'],
    ['core/src/tasks/swaps.ts', '@doppel/engine'],
    // Server and worker never import each other, in sources or tests.
    ['server/src/app.ts', '@doppel/worker'],
    ['server/src/app.ts', '../../worker/src/jobs/swap-job'],
    ['server/test/support/app.ts', '@doppel/worker'],
    ['worker/src/jobs/swap-job.ts', '@doppel/server'],
    ['worker/test/webhooks/delivery.test.ts', '@doppel/server/testing/app'],
    // An API process must not load the engine's models: the server takes the light entry only.
    ['server/src/intake/measure.ts', '@doppel/engine'],
    // Another package's files are reached by its exports, never by a relative path.
    ['server/src/app.ts', '../../core/src/db/connect'],
    ['launcher/test/engine/animated.test.ts', '../../../engine/test/fixtures/pan-clip'],
    // Test support is for tests.
    ['server/src/app.ts', '@doppel/core/testing/database'],
    ['examples/create-and-wait.ts', '@doppel/contract'],
    ['examples/test/create-and-wait.test.ts', '../../server/src/app'],
  ])('refuses in %s the import %s', async (filePath, specifier) => {
    expect(await refusals(filePath, specifier)).toHaveLength(1);
  });

  it.each([
    ['contract/src/router.ts', './schemas/swaps'],
    ['sdk/src/client.ts', '@doppel/contract'],
    ['engine/src/faces/detect-faces.ts', '../swap/swap-image'],
    ['engine/src/faces/detect-faces.ts', '@doppel/contract'],
    ['core/src/tasks/swaps.ts', '@doppel/contract'],
    ['server/src/app.ts', '@doppel/core/db/connect'],
    ['server/src/intake/measure.ts', '@doppel/engine/media'],
    ['server/src/ops/api-docs.ts', '@doppel/contract/openapi'],
    ['server/test/support/app.ts', '@doppel/core/testing/database'],
    ['worker/src/jobs/compute.ts', '@doppel/engine'],
    ['worker/test/webhooks/delivery.test.ts', '@doppel/sdk'],
    ['launcher/src/main.ts', '@doppel/server'],
    ['launcher/src/main.ts', '@doppel/worker'],
    ['launcher/test/engine/animated.test.ts', '@doppel/engine/fixtures/pan-clip'],
    ['launcher/test/support/intake-world.ts', '@doppel/server/testing/intake-world'],
    ['examples/create-and-wait.ts', '@doppel/sdk'],
    ['examples/test/create-and-wait.test.ts', '@doppel/launcher/testing/intake-world'],
  ])('lets %s import %s', async (filePath, specifier) => {
    expect(await refusals(filePath, specifier)).toEqual([]);
  });
});
