/**
 * Creates an image swap and waits for it, printing progress, then the result URL.
 *
 *   DOPPEL_API_KEY=dpl_... DOPPEL_BASE_URL=http://localhost:8080 \
 *   SOURCE_URL=https://.../face.jpg TARGET_URL=https://.../photo.jpg \
 *   npx tsx examples/create-and-wait.ts
 */
import { pathToFileURL } from 'node:url';
import { Doppel, type PublicSwap } from '@doppel/sdk';

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** Runs the example with these settings, printing through `print`; resolves to the done swap. */
export async function main(env: NodeJS.ProcessEnv = process.env, print: (line: string) => void = console.log): Promise<PublicSwap> {
  const doppel = new Doppel({ apiKey: required(env, 'DOPPEL_API_KEY'), baseUrl: required(env, 'DOPPEL_BASE_URL') });
  let last = '';
  const swap = await doppel.swaps.createAndWait(
    { type: 'image', source_url: required(env, 'SOURCE_URL'), target_url: required(env, 'TARGET_URL') },
    {
      // Unset, the SDK polls every 5 s as the API guide recommends.
      intervalMs: env.POLL_INTERVAL_MS ? Number(env.POLL_INTERVAL_MS) : undefined,
      onProgress: (snapshot) => {
        const line = `${snapshot.id}  ${snapshot.status.padEnd(10)} ${String(snapshot.progress).padStart(3)}%`;
        // Polls that saw no change print nothing.
        if (line !== last) print(line);
        last = line;
      },
    },
  );
  // A failed or canceled swap is returned, not thrown: its `error` says why.
  if (swap.status !== 'done') throw new Error(`swap ${swap.id} ended ${swap.status}: ${swap.error ?? 'no reason given'}`);
  print(`Result: ${swap.result_url}`);
  return swap;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
