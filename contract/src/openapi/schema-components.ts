import { generateSchema } from '@anatine/zod-openapi';
import type { oas30 } from 'openapi3-ts';
import stringify from 'safe-stable-stringify';
import type { ZodTypeAny } from 'zod';
import { ErrorEnvelopeSchema } from '../errors';
import { exampleSwap } from '../route-examples';
import { AccountSnapshotSchema } from '../schemas/account';
import { CreateFaceDetectBodySchema, FaceDetectCreatedSchema, FaceDetectTaskSchema } from '../schemas/face-detect';
import { CreateSwapBodySchema, PublicSwapSchema, SwapListPageSchema } from '../schemas/swaps';
import { WebhookPayloadSchema } from '../schemas/webhook';
import { errorExample } from './error-responses';
import {
  exampleAccount,
  exampleFaceDetectCreated,
  exampleFaceDetectTask,
  exampleListPage,
  webhookExamples,
} from './examples';
import { schemaRef } from './refs';

type SchemaObject = oas30.SchemaObject;

/** Responses and webhooks are what the server emits (output); bodies are what it accepts (input). */
const namedSchemas: Record<string, { schema: ZodTypeAny; io: 'input' | 'output'; example?: unknown }> = {
  AccountSnapshot: { schema: AccountSnapshotSchema, io: 'output', example: exampleAccount },
  CreateFaceDetectBody: { schema: CreateFaceDetectBodySchema, io: 'input' },
  CreateSwapBody: { schema: CreateSwapBodySchema, io: 'input' },
  ErrorEnvelope: { schema: ErrorEnvelopeSchema, io: 'output', example: errorExample('not_found') },
  FaceDetectCreated: { schema: FaceDetectCreatedSchema, io: 'output', example: exampleFaceDetectCreated },
  FaceDetectTask: { schema: FaceDetectTaskSchema, io: 'output', example: exampleFaceDetectTask },
  PublicSwap: { schema: PublicSwapSchema, io: 'output', example: exampleSwap },
  SwapListPage: { schema: SwapListPageSchema, io: 'output', example: exampleListPage },
  WebhookPayload: { schema: WebhookPayloadSchema, io: 'output', example: webhookExamples['swap.completed'].value },
};

/** JSON with sorted keys, so two generated schemas compare equal whatever their key order. */
const canonicalJson = (value: unknown): string => stringify(value) ?? '';

/** Named schemas by their canonical JSON, to find inline copies of them. */
export type SchemaNamesByShape = ReadonlyMap<string, string>;

/**
 * Replaces every inline copy of a named schema with a `$ref` to it. The copies come from the same
 * generator as the named schema, so structural equality identifies them exactly.
 */
function withRefs(node: unknown, byShape: SchemaNamesByShape, skipRoot = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withRefs(item, byShape));
  if (!node || typeof node !== 'object') return node;
  const name = skipRoot ? undefined : byShape.get(canonicalJson(node));
  if (name) return schemaRef(name);
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withRefs(value, byShape)]));
}

/**
 * The zod converter writes `exclusiveMinimum: 0` (JSON Schema 2019+, OpenAPI 3.1); OpenAPI 3.0
 * wants `minimum: 0, exclusiveMinimum: true`. Same for the maximum.
 */
function oas30Bounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(oas30Bounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, oas30Bounds(value)]),
  );
  for (const [exclusive, inclusive] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] === 'number') {
      out[inclusive] = out[exclusive];
      out[exclusive] = true;
    }
  }
  return out;
}

/** A schema ts-rest generated inline, as published: OpenAPI 3.0 bounds, named shapes as `$ref`s. */
export const schemaWithRefs = <Schema>(schema: Schema, byShape: SchemaNamesByShape) =>
  withRefs(oas30Bounds(schema), byShape) as Schema;

const pascalCase = (text: string) => text.replace(/(^|_)([a-z])/g, (_m, _sep, letter: string) => letter.toUpperCase());

/**
 * The create-body union's members become components of their own (ImageSwapBody, ...) so the
 * discriminator can map each `type` to one; OpenAPI 3.0 tools only render mappings to `$ref`s.
 */
function unionMembers(union: SchemaObject): { type: string; name: string; schema: SchemaObject }[] {
  return (union.oneOf ?? []).map((member) => {
    const schema = member as SchemaObject;
    const type = (schema.properties?.type as SchemaObject).enum?.[0] as string;
    return { type, name: `${pascalCase(type)}SwapBody`, schema };
  });
}

export interface SchemaComponents {
  readonly schemas: Record<string, SchemaObject>;
  readonly byShape: SchemaNamesByShape;
}

/** `components.schemas`: the main shapes generated from the contract's zod schemas, with examples. */
export function buildSchemaComponents(): SchemaComponents {
  const raw: Record<string, SchemaObject> = {};
  for (const [name, { schema, io }] of Object.entries(namedSchemas)) {
    raw[name] = oas30Bounds(generateSchema(schema, io === 'output')) as SchemaObject;
  }
  const members = unionMembers(raw.CreateSwapBody as SchemaObject);
  for (const member of members) raw[member.name] = member.schema;

  const byShape = new Map(Object.entries(raw).map(([name, schema]) => [canonicalJson(schema), name]));
  const schemas: Record<string, SchemaObject> = {};
  for (const name of Object.keys(raw).sort()) {
    const published = withRefs(raw[name], byShape, true) as SchemaObject;
    const example = namedSchemas[name]?.example;
    schemas[name] = example === undefined ? published : { ...published, example };
  }
  schemas.CreateSwapBody = {
    ...schemas.CreateSwapBody,
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(members.map(({ type, name }) => [type, schemaRef(name).$ref])),
    },
  };
  return { schemas, byShape };
}
