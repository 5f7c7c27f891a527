import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiEnabled } from '@doppel/core/settings';
import { createTestDatabase, type TestDatabase } from '@doppel/core/testing/database';
import { cliFor } from '../support/run-cli';

let t: TestDatabase;
let doppel: ReturnType<typeof cliFor>;
beforeAll(async () => {
  t = await createTestDatabase();
  doppel = cliFor(t.url);
});
afterAll(() => t.close());

const disabledText = 'The API is disabled: every /api/v1 request is answered with 503 api_temporarily_disabled.\n';

describe('doppel api', () => {
  it('reports the API enabled on a new installation', async () => {
    expect(await doppel('api', 'status')).toEqual({ exitCode: 0, stdout: 'The API is enabled.\n', stderr: '' });
  });

  it('switches the API off and on again, as the status then shows', async () => {
    expect(await doppel('api', 'disable')).toEqual({ exitCode: 0, stdout: disabledText, stderr: '' });
    expect(await isApiEnabled(t.db)).toBe(false);
    expect(await doppel('api', 'status')).toEqual({ exitCode: 0, stdout: disabledText, stderr: '' });
    // Disabling twice is no error: the switch simply stays off.
    expect((await doppel('api', 'disable')).exitCode).toBe(0);

    expect(await doppel('api', 'enable')).toEqual({ exitCode: 0, stdout: 'The API is enabled.\n', stderr: '' });
    expect(await isApiEnabled(t.db)).toBe(true);
  });

  it('prints { api_enabled } under --json', async () => {
    expect(JSON.parse((await doppel('api', 'disable', '--json')).stdout)).toEqual({ api_enabled: false });
    expect(JSON.parse((await doppel('api', 'status', '--json')).stdout)).toEqual({ api_enabled: false });
    expect(JSON.parse((await doppel('api', 'enable', '--json')).stdout)).toEqual({ api_enabled: true });
  });
});
