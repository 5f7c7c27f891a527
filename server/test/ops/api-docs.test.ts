import { contract } from '@doppel/contract';
import { buildOpenApiDocument } from '@doppel/contract/openapi';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocsPlugin } from '../../src/ops/api-docs';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  await app.register(apiDocsPlugin);
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

/** Every src and href of the page. */
function referencesOf(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1] as string);
}

describe('GET /api/v1/openapi.json', () => {
  it('serves the document generated from the contract', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(contract))));
  });

  it('answers a revalidation with 304 while the document is unchanged', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
});

describe('GET /docs', () => {
  it('serves an HTML page that loads only assets of this server', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    const references = referencesOf(response.body);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) expect(reference).toMatch(/^\/docs\/assets\/[\w.-]+$/);
    expect(response.body).not.toMatch(/https?:\/\//);
  });

  it('serves every asset the page references, with its content type', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs' });
    for (const reference of referencesOf(page.body)) {
      const asset = await app.inject({ method: 'GET', url: reference });
      expect(asset.statusCode, reference).toBe(200);
      expect(asset.headers['cache-control'], reference).toMatch(/max-age=\d+/);
      const extension = reference.slice(reference.lastIndexOf('.'));
      const expectedType = { '.js': /^text\/javascript/, '.css': /^text\/css/, '.png': /^image\/png/ }[extension];
      expect(asset.headers['content-type'], reference).toMatch(expectedType ?? /^$/);
    }
  });

  it('points Swagger UI at the served document', async () => {
    const page = await app.inject({ method: 'GET', url: '/docs' });
    const scripts = referencesOf(page.body).filter((reference) => reference.endsWith('.js'));
    const bodies = await Promise.all(scripts.map((url) => app.inject({ method: 'GET', url })));
    expect(bodies.some((script) => script.body.includes('"/api/v1/openapi.json"'))).toBe(true);
  });

  it.each([
    '/docs/assets/..%2f..%2fpackage.json',
    '/docs/assets/../../package.json',
    '/docs/assets/%2e%2e%2fpackage.json',
    '/docs/assets/package.json',
    '/docs/assets/swagger-ui.js.map',
    '/docs/assets/__proto__',
  ])('answers 404 for %s, which is not an allow-listed asset', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('"name"');
  });
});
