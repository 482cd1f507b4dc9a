import { invalidParams, type AuthenticationInfoDto, type MessageDto, type PartDto } from '@suite/contracts';
import type { AuthenticationInfo, JsonObject, Message, Part } from '@suite/jobs';

/**
 * Validated A2A params (the DTOs of `@suite/contracts`, `a2a/`) as the gateway's A2A types:
 * only what a client sent, in the wire's key order.
 */

export const isObject = (value: unknown): value is JsonObject =>
  Boolean(value) && typeof value === 'object' && !Array.isArray(value);

/** A part's metadata, filename and media type of the wrong type are left out, as always. */
function toPart(dto: PartDto): Part {
  const part: Part = {};
  if (dto.text !== undefined) part.text = dto.text;
  if (dto.url !== undefined) part.url = dto.url;
  if (dto.raw !== undefined) part.raw = dto.raw;
  if (dto.data !== undefined) part.data = dto.data;
  if (isObject(dto.metadata)) part.metadata = dto.metadata;
  if (typeof dto.filename === 'string') part.filename = dto.filename;
  if (typeof dto.mediaType === 'string') part.mediaType = dto.mediaType;
  return part;
}

/** A user's message; an empty contextId or taskId is no id. */
export function toMessage(dto: MessageDto): Message {
  const message: Message = { messageId: dto.messageId, role: 'ROLE_USER', parts: dto.parts.map(toPart) };
  if (dto.contextId) message.contextId = dto.contextId;
  if (dto.taskId) message.taskId = dto.taskId;
  if (dto.metadata) message.metadata = dto.metadata as JsonObject;
  return message;
}

/** Empty credentials are no credentials. */
export function toAuthentication(dto: AuthenticationInfoDto | undefined): AuthenticationInfo | undefined {
  if (!dto) return undefined;
  return { scheme: dto.scheme, ...(dto.credentials ? { credentials: dto.credentials } : {}) };
}

/** SendMessage's own metadata (job options), checked only when a new task is made from it. */
export function requestMetadata(value: unknown): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw invalidParams('params.metadata must be an object');
  return value;
}
