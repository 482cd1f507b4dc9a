import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import { AuthError, AuthErrorCode } from '@suite/errors';
import { clampTimeout, type DeployedMcpTool, type InspectResult } from '@suite/project-runtime';

/** MCP tool names (2025-11-25): 1 to 128 of letters, digits, `_`, `-` and `.`; we keep them shorter. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const MAX_DESCRIPTION = 4_000;
const MAX_SCHEMA_BYTES = 32 * 1024;

const invalid = (message: string) => new AuthError(AuthErrorCode.InvalidRequest, message);

/**
 * A defineMcpTool value as the deploy inspected it, checked field by field: every problem is a
 * 400 naming the file and the field. Schemas must compile (ajv, the validator the MCP SDK uses).
 */
export function deployedMcpTool(entry: string, info: InspectResult): DeployedMcpTool {
  const tool = info.tool;
  if (!info.hasDefault || info.platform !== 'mcp-tool' || !tool) {
    throw invalid(`${entry} must default-export defineMcpTool({ name, description, inputSchema, handler }).`);
  }
  if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
    throw invalid(`${entry}: name must be 1 to 64 letters, digits, '_', '-' or '.'.`);
  }
  if (typeof tool.description !== 'string' || tool.description.trim() === '') {
    throw invalid(`${entry}: description must be a non-empty string.`);
  }
  if (tool.description.length > MAX_DESCRIPTION) {
    throw invalid(`${entry}: description is longer than ${MAX_DESCRIPTION} characters.`);
  }
  if (tool.title !== undefined && typeof tool.title !== 'string') {
    throw invalid(`${entry}: title must be a string.`);
  }
  if (tool.auth === 'invalid') throw invalid(`${entry}: auth must be 'required', 'optional' or false.`);
  const inputSchema = objectSchema(entry, 'inputSchema', tool.inputSchema);
  const outputSchema =
    tool.outputSchema === undefined ? null : objectSchema(entry, 'outputSchema', tool.outputSchema);
  return {
    name: tool.name,
    entry,
    title: typeof tool.title === 'string' ? tool.title : null,
    description: tool.description,
    inputSchema,
    outputSchema,
    auth: tool.auth as DeployedMcpTool['auth'],
    timeoutMs: clampTimeout(info.timeoutMs),
  };
}

function objectSchema(entry: string, field: string, schema: unknown): Record<string, unknown> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw invalid(
      `${entry}: ${field} must be a JSON Schema object such as { type: 'object', properties: {...} }.`,
    );
  }
  const record = schema as Record<string, unknown>;
  if (record.type !== 'object') throw invalid(`${entry}: ${field} must have type 'object' at its top level.`);
  if (JSON.stringify(record).length > MAX_SCHEMA_BYTES) {
    throw invalid(`${entry}: ${field} is larger than ${MAX_SCHEMA_BYTES / 1024} KB.`);
  }
  try {
    schemaValidator().getValidator(record as JsonSchemaType);
  } catch (error) {
    throw invalid(`${entry}: ${field} is not a valid JSON Schema: ${(error as Error).message}`);
  }
  return record;
}

/**
 * A fresh validator: ajv registers schemas by `$id`, so one shared instance would let a project's
 * `$id` collide with another's. One per deployment's tool set (see McpToolCatalog), never shared.
 */
export function schemaValidator(): AjvJsonSchemaValidator {
  return new AjvJsonSchemaValidator();
}
