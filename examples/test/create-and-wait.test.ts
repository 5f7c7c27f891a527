import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@doppel/server/testing/app';
import { demoPhoto, sendBytes, startIntakeWorld, type IntakeWorld } from '@doppel/launcher/testing/intake-world';
import { makeJpeg } from '@doppel/core/testing/media-files';
import { main } from '../create-and-wait';

let world: IntakeWorld;
let service: TestApp;

beforeAll(async () => {
  // Media on a loopback HTTPS server the service fetches through its address guard, and the
  // service with its job workers and the real engine.
  world = await startIntakeWorld({
    '/face.jpg': sendBytes(demoPhoto(1)),
    '/group.jpg': sendBytes(demoPhoto(2)),
    '/no-face.jpg': sendBytes(await makeJpeg()),
  });
  service = await world.startApp({ engine: true });
});
afterAll(async () => {
  await service?.close();
  await world?.close();
});

describe('examples/create-and-wait.ts', () => {
  it('creates an image swap, prints its progress as it runs, and prints the result URL of the done swap', async () => {
    const account = await service.createAccount({ credits: 1 });
    const lines: string[] = [];
    const swap = await main(
      {
        DOPPEL_API_KEY: account.apiKey,
        DOPPEL_BASE_URL: service.url,
        SOURCE_URL: world.url('/face.jpg'),
        TARGET_URL: world.url('/group.jpg'),
        POLL_INTERVAL_MS: '200',
      },
      (line) => lines.push(line),
    );

    const progress = lines.slice(0, -1).map((line) => /^(swp_\S+) {2}(\S+)\s+(\d+)%$/.exec(line));
    expect(progress.every((match) => match?.[1] === swap.id)).toBe(true);
    expect(progress.at(-1)?.slice(2)).toEqual(['done', '100']);
    const percents = progress.map((match) => Number(match![3]));
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(lines.at(-1)).toBe(`Result: ${swap.result_url}`);

    // The service agrees, and the URL serves the swapped image.
    const stored = await service.request(`/api/v1/swaps/${swap.id}`, { key: account.apiKey });
    expect(stored.body).toMatchObject({ id: swap.id, status: 'done', progress: 100, result_url: swap.result_url });
    const result = await fetch(swap.result_url!);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('image/jpeg');
  });

  it('fails with the reason when a setting is missing, before any request', async () => {
    await expect(main({ DOPPEL_BASE_URL: service.url }, () => {})).rejects.toThrow('DOPPEL_API_KEY is not set');
  });

  it('fails with the swap error when the swap does not end done', async () => {
    const account = await service.createAccount({ credits: 1 });
    const env = {
      DOPPEL_API_KEY: account.apiKey,
      DOPPEL_BASE_URL: service.url,
      SOURCE_URL: world.url('/face.jpg'),
      // Accepted at create, but the engine finds no face to replace in a plain-colour image.
      TARGET_URL: world.url('/no-face.jpg'),
      POLL_INTERVAL_MS: '200',
    };
    await expect(main(env, () => {})).rejects.toThrow(/^swap swp_\S+ ended failed: /);
  });
});
