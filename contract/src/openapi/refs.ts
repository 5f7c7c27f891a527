import type { oas30 } from 'openapi3-ts';

export const schemaRef = (name: string): oas30.ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

export const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
