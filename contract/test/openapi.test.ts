import { readFile } from 'node:fs/promises';
import { compileErrors, validate } from '@readme/openapi-parser';
import type { oas30 } from 'openapi3-ts';
import { describe, expect, it } from 'vitest';
import type { ZodTypeAny } from 'zod';
import {
  API_PREFIX,
  AccountSnapshotSchema,
  CreateFaceDetectBodySchema,
  CreateSwapBodySchema,
  ErrorEnvelopeSchema,
  FaceDetectCreatedSchema,
  FaceDetectTaskSchema,
  PublicSwapSchema,
  SwapListPageSchema,
  TASK_ID_PATTERN,
  WEBHOOK_SIGNATURE_HEADER,
  WebhookPayloadSchema,
  contract,
  errorStatusByCode,
  routeNames,
  webhookEvents,
} from '../src/index';
import { buildOpenApiDocument, serializeOpenApiDocument } from '../src/openapi/index';

const document = buildOpenApiDocument(contract);

type Operation = oas30.OperationObject;
type Response = oas30.ResponseObject;
type Parameter = oas30.ParameterObject;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function operationOf(name: (typeof routeNames)[number]): Operation {
  const route = contract[name];
  const path = route.path.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}');
  const method = route.method.toLowerCase() as 'get' | 'post' | 'delete';
  const operation = document.paths[path]?.[method] as Operation | undefined;
  if (!operation) throw new Error(`${route.method} ${path} is not documented`);
  return operation;
}

const allOperations = routeNames.map((name) => ({ name, operation: operationOf(name) }));

function jsonOf(response: Response) {
  const media = response.content?.['application/json'];
  if (!media) throw new Error('response has no JSON body');
  return media;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    // The validator dereferences in place, so it gets a copy.
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(document.openapi).toMatch(/^3\.0\.\d+$/);
  });

  it('names the API and puts the version prefix in the server URL', () => {
    expect(document.info).toMatchObject({ title: 'Doppel', version: '1.0.0' });
    expect(document.servers?.[0]?.url).toBe(API_PREFIX);
  });

  it('documents every contract route with exactly its declared statuses', () => {
    for (const { name, operation } of allOperations) {
      expect(operation.operationId).toBe(name);
      expect(Object.keys(operation.responses).sort()).toEqual(Object.keys(contract[name].responses).sort());
    }
    const documented = Object.values(document.paths).flatMap((item) => Object.keys(item));
    expect(documented).toHaveLength(routeNames.length);
  });

  it('requires the bearer API key on every operation', () => {
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    for (const { operation } of allOperations) expect(operation.security).toBeUndefined();
  });

  it('publishes the main shapes as components and refers to them', () => {
    const schemas = document.components?.schemas ?? {};
    for (const name of [
      'PublicSwap',
      'SwapListPage',
      'AccountSnapshot',
      'FaceDetectTask',
      'FaceDetectCreated',
      'CreateSwapBody',
      'ErrorEnvelope',
      'WebhookPayload',
    ]) {
      expect(schemas, name).toHaveProperty(name);
    }
    expect(jsonOf(operationOf('getSwap').responses[200]).schema).toEqual(ref('PublicSwap'));
    expect(jsonOf(operationOf('listSwaps').responses[200]).schema).toEqual(ref('SwapListPage'));
    expect(jsonOf(operationOf('me').responses[200]).schema).toEqual(ref('AccountSnapshot'));
    expect(jsonOf(operationOf('createFaceDetect').responses[202]).schema).toEqual(ref('FaceDetectCreated'));
    expect(jsonOf(operationOf('getFaceDetect').responses[200]).schema).toEqual(ref('FaceDetectTask'));
    const createBody = operationOf('createSwap').requestBody as oas30.RequestBodyObject;
    expect(createBody.required).toBe(true);
    expect(createBody.content['application/json']?.schema).toEqual(ref('CreateSwapBody'));
    expect((schemas.SwapListPage as oas30.SchemaObject).properties?.data).toMatchObject({ items: ref('PublicSwap') });
  });

  it('maps each create-body type to its own schema', () => {
    const body = document.components?.schemas?.CreateSwapBody as oas30.SchemaObject;
    expect(body.discriminator).toEqual({
      propertyName: 'type',
      mapping: {
        image: ref('ImageSwapBody').$ref,
        multi_face_image: ref('MultiFaceImageSwapBody').$ref,
        gif: ref('GifSwapBody').$ref,
        video: ref('VideoSwapBody').$ref,
      },
    });
  });

  it('answers every error with the envelope and lists exactly the codes of that status', () => {
    for (const { name, operation } of allOperations) {
      for (const [key, response] of Object.entries(operation.responses) as [string, Response][]) {
        const status = Number(key);
        if (status < 400) continue;
        const media = jsonOf(response);
        expect(media.schema).toEqual(ref('ErrorEnvelope'));
        const codes = Object.keys(media.examples ?? {});
        expect(codes.length, `${name} ${status}`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(errorStatusByCode[code as keyof typeof errorStatusByCode], `${name} ${code}`).toBe(status);
          expect(response.description).toContain(`\`${code}\``);
          const example = (media.examples?.[code] as oas30.ExampleObject).value;
          expect(ErrorEnvelopeSchema.parse(example).error.code).toBe(code);
        }
      }
    }
  });

  it('lists the concurrent-create limit only where creates are limited', () => {
    const codesAt429 = (name: (typeof routeNames)[number]) =>
      Object.keys(jsonOf(operationOf(name).responses[429]).examples ?? {});
    expect(codesAt429('createSwap')).toEqual(['rate_limited', 'rate_limited_daily', 'rate_limited_concurrent']);
    expect(codesAt429('listSwaps')).toEqual(['rate_limited', 'rate_limited_daily']);
    expect(Object.keys(jsonOf(operationOf('getSwap').responses[400]).examples ?? {})).toEqual(['validation_error']);
    expect(Object.keys(jsonOf(operationOf('createFaceDetect').responses[400]).examples ?? {})).toEqual([
      'validation_error',
      'source_unreachable',
    ]);
  });

  it('documents the request id and rate-limit headers', () => {
    const headerNames = (response: Response) => Object.keys(response.headers ?? {});
    for (const { operation } of allOperations) {
      for (const response of Object.values(operation.responses) as Response[]) {
        expect(headerNames(response)).toEqual(
          expect.arrayContaining(['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining']),
        );
      }
      expect(headerNames(operation.responses[429])).toEqual(expect.arrayContaining(['Retry-After', 'x-ratelimit-reset']));
      expect(headerNames(operation.responses[503])).toContain('Retry-After');
    }
    expect(Object.keys(document.components?.headers ?? {}).sort()).toEqual(
      ['Retry-After', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id'].sort(),
    );
  });

  it('gives task-id path parameters the task-id pattern', () => {
    for (const name of ['getSwap', 'cancelSwap', 'getFaceDetect'] as const) {
      const taskId = (operationOf(name).parameters as Parameter[]).find((p) => p.in === 'path');
      expect(taskId).toMatchObject({ name: 'taskId', required: true, schema: { pattern: TASK_ID_PATTERN.source } });
    }
  });

  it('documents the Idempotency-Key header and the wait query of a create', () => {
    const parameters = operationOf('createSwap').parameters as Parameter[];
    const key = parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    expect(key).toMatchObject({ schema: { minLength: 1, maxLength: 64 } });
    expect(key?.description).toBeTruthy();
    const wait = parameters.find((p) => p.in === 'query' && p.name === 'wait');
    expect(wait).toMatchObject({ schema: { enum: ['true', 'false'] } });
    expect(wait?.description).toBeTruthy();
  });

  it('describes the signed webhook as a callback of createSwap', () => {
    const callback = operationOf('createSwap').callbacks?.swapWebhook as oas30.CallbackObject;
    const delivery = callback['{$request.body#/webhook_url}']?.post as Operation;
    const body = (delivery.requestBody as oas30.RequestBodyObject).content['application/json'];
    expect(body?.schema).toEqual(ref('WebhookPayload'));
    expect(Object.keys(body?.examples ?? {})).toEqual([...webhookEvents]);
    const signature = (delivery.parameters as Parameter[]).find((p) => p.name === WEBHOOK_SIGNATURE_HEADER);
    expect(signature).toMatchObject({ in: 'header', required: true });
    expect(delivery.security).toEqual([]);
  });

  it('repeats each webhook event under x-webhooks for tools that read the 3.1 shape', () => {
    const webhooks = document['x-webhooks'] as Record<string, oas30.PathItemObject>;
    expect(Object.keys(webhooks)).toEqual([...webhookEvents]);
    for (const item of Object.values(webhooks)) {
      const body = (item.post?.requestBody as oas30.RequestBodyObject).content['application/json'];
      expect(body?.schema).toEqual(ref('WebhookPayload'));
    }
  });

  it('only shows examples the contract accepts', () => {
    const schemaOf: Record<string, ZodTypeAny> = {
      AccountSnapshot: AccountSnapshotSchema,
      ErrorEnvelope: ErrorEnvelopeSchema,
      FaceDetectCreated: FaceDetectCreatedSchema,
      FaceDetectTask: FaceDetectTaskSchema,
      PublicSwap: PublicSwapSchema,
      SwapListPage: SwapListPageSchema,
      WebhookPayload: WebhookPayloadSchema,
    };
    const components = document.components?.schemas ?? {};
    for (const [name, schema] of Object.entries(schemaOf)) {
      const example = (components[name] as oas30.SchemaObject).example;
      expect(example, name).toBeDefined();
      expect(() => schema.parse(example), name).not.toThrow();
    }
    const requestExamples = (name: 'createSwap' | 'createFaceDetect') =>
      Object.values(
        (operationOf(name).requestBody as oas30.RequestBodyObject).content['application/json']?.examples ?? {},
      ).map((example) => (example as oas30.ExampleObject).value);
    const swapBodies = requestExamples('createSwap');
    expect(swapBodies.map((body) => body.type).sort()).toEqual(['gif', 'image', 'multi_face_image', 'video']);
    for (const body of swapBodies) expect(() => CreateSwapBodySchema.parse(body)).not.toThrow();
    for (const body of requestExamples('createFaceDetect')) expect(() => CreateFaceDetectBodySchema.parse(body)).not.toThrow();
    const created = jsonOf(operationOf('createSwap').responses[201]).example;
    expect(PublicSwapSchema.parse(created)).toMatchObject({ status: 'queued', result_url: null });
  });

  it('documents only the routes of the router it is given', () => {
    const accountOnly = buildOpenApiDocument({ me: contract.me });
    expect(Object.keys(accountOnly.paths)).toEqual(['/me']);
    expect(accountOnly.paths['/me']).toEqual(document.paths['/me']);
  });

  it('is generated identically every time', () => {
    expect(serializeOpenApiDocument(buildOpenApiDocument(contract))).toBe(serializeOpenApiDocument(document));
  });

  it('is committed up to date in docs/openapi.json (run `pnpm openapi` after a contract change)', async () => {
    const committed = await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(serializeOpenApiDocument(document));
  });
});
