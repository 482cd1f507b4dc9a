import { DECORATORS } from '@nestjs/swagger';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { DtoClass } from './validate-dto.js';

/** A JSON Schema object (draft 7), as MCP's `tools/list` gives it to clients. */
export type JsonSchemaObject = Record<string, unknown> & {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
};

/** What the DTO's `@ApiProperty` adds for a reader: words, defaults, the allowed values, an example. */
interface PropertyDocs {
  description?: string;
  default?: unknown;
  enum?: unknown[] | Record<string, unknown>;
  example?: unknown;
  additionalProperties?: unknown;
}

/**
 * The JSON Schema of a DTO, made from the DTO's class-validator rules (types, lengths, bounds,
 * enums, patterns, required fields: the rules `validateDto` applies) with the descriptions,
 * defaults and examples of its `@ApiProperty` documentation. A rule lives in the DTO only; this
 * is how transports that publish a schema (MCP tools) show it.
 */
export function dtoJsonSchema(dto: DtoClass<object>): JsonSchemaObject {
  const schema = targetConstructorToSchema(dto) as Partial<JsonSchemaObject>;
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [name, rules] of Object.entries(schema.properties ?? {})) {
    // An `@IsObject()` field is free-form JSON, not a reference to a class named Object.
    const { $ref: _ref, ...own } = rules as Record<string, unknown>;
    const docs = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype, name) as
      PropertyDocs | undefined;
    properties[name] = { ...own, ...documentation(docs) };
  }
  const required = schema.required?.length ? { required: [...schema.required] } : {};
  return { type: 'object', properties, ...required };
}

function documentation(docs: PropertyDocs | undefined): Record<string, unknown> {
  if (!docs) return {};
  const values = docs.enum && !Array.isArray(docs.enum) ? Object.values(docs.enum) : docs.enum;
  return {
    ...(docs.description ? { description: docs.description } : {}),
    ...(docs.default !== undefined ? { default: docs.default } : {}),
    ...(values ? { enum: values } : {}),
    ...(docs.example !== undefined ? { examples: [docs.example] } : {}),
    ...(docs.additionalProperties !== undefined ? { additionalProperties: docs.additionalProperties } : {}),
  };
}
