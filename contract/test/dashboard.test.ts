import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { dashboardErrorStatusByCode, dashboardContract, DASHBOARD_API_PREFIX } from '../src/dashboard';
import { API_PREFIX, errorStatusByCode } from '../src/index';

const routes = Object.values(dashboardContract);

describe('the dashboard contract', () => {
  it('lives under /dashboard/api, apart from the public API', () => {
    for (const route of routes) {
      expect(route.path.startsWith(`${DASHBOARD_API_PREFIX}/`)).toBe(true);
      expect(route.path.startsWith(API_PREFIX)).toBe(false);
    }
  });

  it('stays out of the public OpenAPI document', async () => {
    const document = JSON.parse(await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(Object.keys(document.paths).filter((p) => p.includes('dashboard'))).toEqual([]);
  });

  it("keeps every API error code at the API's status", () => {
    for (const [code, status] of Object.entries(errorStatusByCode)) {
      expect(dashboardErrorStatusByCode[code as keyof typeof errorStatusByCode]).toBe(status);
    }
  });
});
