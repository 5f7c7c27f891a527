import type { AppRoute } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { oas30 } from 'openapi3-ts';
import type { RouteDocs } from '../route-docs';
import { errorResponse, isErrorStatus } from './error-responses';
import { everyResponseHeaders } from './headers';
import { headerRefs } from './refs';
import { schemaWithRefs, type SchemaNamesByShape } from './schema-components';
import { webhookOperation } from './webhook-operation';
import { webhookEvents } from '../schemas/webhook';

/** A router whose every route carries its OpenAPI facts as ts-rest metadata. */
export type DocumentedRouter = Readonly<Record<string, AppRoute & { readonly metadata: RouteDocs }>>;

type OperationMapper = NonNullable<NonNullable<Parameters<typeof generateOpenApi>[2]>['operationMapper']>;
/** An operation as ts-rest types it (openapi3-ts 2, its own dependency). */
type Operation = ReturnType<OperationMapper>;
type Parameter = Exclude<NonNullable<Operation['parameters']>[number], { $ref: string }>;
type ParameterSchema = Exclude<NonNullable<Parameter['schema']>, { $ref: string }>;
type RequestBody = Exclude<NonNullable<Operation['requestBody']>, { $ref: string }>;

const CALLBACK_URL = '{$request.body#/webhook_url}';

/** `idempotency-key` -> `Idempotency-Key`: header names are case-insensitive; docs use the usual spelling. */
const headerSpelling = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());

/** ts-rest leaves a header's or query's description inside its schema; tools show it from the parameter. */
function documentParameter(parameter: Parameter): Parameter {
  const { description: schemaDescription, ...schema } = (parameter.schema ?? {}) as ParameterSchema;
  const description = parameter.description ?? schemaDescription;
  return {
    name: parameter.in === 'header' ? headerSpelling(parameter.name) : parameter.name,
    in: parameter.in,
    ...(description && { description }),
    ...(parameter.required && { required: true }),
    schema,
  };
}

function documentResponses(route: string, docs: RouteDocs, generated: Operation['responses'], byShape: SchemaNamesByShape) {
  return Object.fromEntries(
    Object.entries(generated).map(([key, response]: [string, { content?: RequestBody['content'] }]) => {
      const status = Number(key);
      if (isErrorStatus(status)) return [key, errorResponse(route, docs, status)];
      const media = response.content?.['application/json'];
      const example = docs.successExample;
      return [
        key,
        {
          description: docs.success,
          headers: headerRefs(everyResponseHeaders),
          ...(media && {
            content: {
              'application/json': {
                schema: schemaWithRefs(media.schema, byShape),
                ...(example !== undefined && { example }),
              },
            },
          }),
        },
      ];
    }),
  );
}

/** ts-rest's operation for one route, completed from the route's metadata. */
function documentOperation(generated: Operation, router: DocumentedRouter, byShape: SchemaNamesByShape): Operation {
  const route = generated.operationId ?? '';
  const docs = Object.hasOwn(router, route) ? router[route]?.metadata : undefined;
  if (!docs) throw new Error(`OpenAPI operation ${route} is not a documented contract route`);
  const body = (generated.requestBody as RequestBody | undefined)?.content['application/json'];
  const examples = docs.requestExamples;
  const callbacks = docs.webhookCallback
    ? { swapWebhook: { [CALLBACK_URL]: { post: webhookOperation(webhookEvents) } } }
    : undefined;
  return {
    operationId: route,
    summary: generated.summary,
    description: generated.description,
    tags: [docs.tag],
    parameters: (generated.parameters as Parameter[]).map(documentParameter),
    ...(body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: schemaWithRefs(body.schema, byShape), ...(examples && { examples }) } },
      },
    }),
    responses: documentResponses(route, docs, generated.responses, byShape),
    ...(callbacks && { callbacks }),
  };
}

/** The `paths` of the document: ts-rest generates each operation, the route metadata completes it. */
export function documentPaths(router: DocumentedRouter, pathPrefix: string, byShape: SchemaNamesByShape): oas30.PathsObject {
  const operationMapper: OperationMapper = (operation) => documentOperation(operation, router, byShape);
  const generated = generateOpenApi(router, { info: { title: '', version: '' } }, { setOperationId: true, operationMapper });
  return Object.fromEntries(
    // Paths are relative to the server URL, which carries the version prefix (spec section 9).
    Object.entries(generated.paths).map(([path, item]) => [path.slice(pathPrefix.length), item]),
  );
}
