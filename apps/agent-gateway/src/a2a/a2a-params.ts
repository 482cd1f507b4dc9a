import { INT32_MAX, invalidParams, toCamelCase } from '@suite/contracts';
import type { AuthenticationInfo, JsonObject, Message, Part } from './a2a.types.js';

export const isObject = (value: unknown): value is JsonObject =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/**
 * Typed readers for one params object; each failure names the field. SendMessage's params are
 * still read with these; the other methods' params are DTOs (`@suite/contracts`, `a2a/`).
 */
export class Params {
  constructor(
    private readonly value: JsonObject,
    private readonly path = 'params',
  ) {}

  static of(value: unknown): Params {
    if (value === undefined || value === null) return new Params({});
    if (!isObject(value)) throw invalidParams('params must be an object');
    return new Params(toCamelCase(value) as JsonObject);
  }

  private where(key: string): string {
    return `${this.path}.${key}`;
  }

  raw(key: string): unknown {
    return this.value[key];
  }

  string(key: string): string | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw invalidParams(`${this.where(key)} must be a string`);
    return v;
  }

  requiredString(key: string): string {
    const v = this.string(key);
    if (!v) throw invalidParams(`${this.where(key)} is required`);
    return v;
  }

  boolean(key: string): boolean | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') throw invalidParams(`${this.where(key)} must be true or false`);
    return v;
  }

  int(key: string, min: number, max: number): number | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) return undefined;
    // proto JSON allows int32 as a string too
    const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
      throw invalidParams(`${this.where(key)} must be an integer from ${min} to ${max}`);
    }
    return n;
  }

  object(key: string): Params | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) throw invalidParams(`${this.where(key)} must be an object`);
    return new Params(v, this.where(key));
  }

  jsonObject(key: string): JsonObject | undefined {
    const v = this.value[key];
    if (v === undefined || v === null) return undefined;
    if (!isObject(v)) throw invalidParams(`${this.where(key)} must be an object`);
    return v;
  }

  /** The object itself, for nested shapes read as a whole. */
  get all(): JsonObject {
    return this.value;
  }
}

export function historyLength(params: Params): number | undefined {
  return params.int('historyLength', 0, INT32_MAX);
}

export function readPart(value: unknown, where: string): Part {
  if (!isObject(value)) throw invalidParams(`${where} must be an object`);
  const kinds = ['text', 'raw', 'url', 'data'].filter((k) => value[k] !== undefined);
  if (kinds.length !== 1) throw invalidParams(`${where} must have exactly one of text, raw, url, data`);
  const part: Part = {};
  if (value.text !== undefined) {
    if (typeof value.text !== 'string') throw invalidParams(`${where}.text must be a string`);
    part.text = value.text;
  }
  if (value.url !== undefined) {
    if (typeof value.url !== 'string') throw invalidParams(`${where}.url must be a string`);
    part.url = value.url;
  }
  if (value.raw !== undefined) {
    if (typeof value.raw !== 'string') throw invalidParams(`${where}.raw must be base64 text`);
    part.raw = value.raw;
  }
  if (value.data !== undefined) part.data = value.data;
  if (isObject(value.metadata)) part.metadata = value.metadata;
  if (typeof value.filename === 'string') part.filename = value.filename;
  if (typeof value.mediaType === 'string') part.mediaType = value.mediaType;
  return part;
}

export function readMessage(params: Params | undefined): Message {
  if (!params) throw invalidParams('params.message is required');
  const parts = params.raw('parts');
  if (!Array.isArray(parts) || parts.length === 0) {
    throw invalidParams('params.message.parts must be a non-empty array');
  }
  const role = params.string('role') ?? 'ROLE_USER';
  if (!['ROLE_USER', 'ROLE_UNSPECIFIED', 'user'].includes(role)) {
    throw invalidParams('params.message.role must be ROLE_USER: messages to this agent come from users');
  }
  const message: Message = {
    messageId: params.requiredString('messageId'),
    role: 'ROLE_USER',
    parts: parts.map((part, i) => readPart(part, `params.message.parts[${i}]`)),
  };
  const contextId = params.string('contextId');
  const taskId = params.string('taskId');
  const metadata = params.jsonObject('metadata');
  if (contextId) message.contextId = contextId;
  if (taskId) message.taskId = taskId;
  if (metadata) message.metadata = metadata;
  return message;
}

export function readAuthentication(params: Params | undefined): AuthenticationInfo | undefined {
  if (!params) return undefined;
  const scheme = params.requiredString('scheme');
  if (!/^[A-Za-z][\w.+-]*$/.test(scheme))
    throw invalidParams('authentication.scheme must be a token such as Bearer');
  const credentials = params.string('credentials');
  if (credentials && /[\r\n]/.test(credentials)) {
    throw invalidParams('authentication.credentials must not contain line breaks');
  }
  return { scheme, ...(credentials ? { credentials } : {}) };
}
