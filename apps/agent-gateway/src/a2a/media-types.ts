import { A2aError, A2aErrorCode } from '@suite/errors';
import type { Message, Part } from '@suite/jobs';

/**
 * What this agent reads from a message: text parts (the browser test instructions) and JSON data
 * parts (job options). The agent card's input modes say the same.
 */
export const INPUT_MODES = ['text/plain', 'application/json'] as const;

/** The bare media type, lower case, without parameters ("Text/Plain; charset=utf-8" → "text/plain"). */
export function mediaTypeOf(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase();
}

export const isJsonMediaType = (type: string): boolean =>
  type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);

/** A part this agent reads: text (as any text/* or JSON type) or data (as JSON). */
export function isAcceptedPart(part: Part): boolean {
  const type = mediaTypeOf(part.mediaType);
  if (part.text !== undefined) return type === '' || type.startsWith('text/') || isJsonMediaType(type);
  if (part.data !== undefined) return type === '' || isJsonMediaType(type);
  // Files (raw bytes or a URL) are not read: the instructions are text.
  return false;
}

const describePart = (part: Part): string =>
  mediaTypeOf(part.mediaType) ||
  (part.raw !== undefined ? 'raw bytes' : part.url !== undefined ? 'a file URL' : 'unknown');

/** A message none of whose parts this agent reads is -32005 (ContentTypeNotSupportedError). */
export function checkInputModes(message: Message): void {
  if (message.parts.some(isAcceptedPart)) return;
  const got = [...new Set(message.parts.map(describePart))].join(', ');
  throw new A2aError(
    A2aErrorCode.ContentTypeNotSupported,
    `Incompatible content types: this agent reads ${INPUT_MODES.join(' and ')} parts (text instructions, JSON data with job options); the message has only ${got}.`,
  );
}

/** A request body that is not JSON by its Content-Type is -32005 (ContentTypeNotSupportedError). */
export function contentTypeError(header: string | string[] | undefined): A2aError | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const type = mediaTypeOf(value);
  if (isJsonMediaType(type)) return undefined;
  return new A2aError(
    A2aErrorCode.ContentTypeNotSupported,
    type
      ? `Content-Type ${JSON.stringify(type)} is not supported: send the request as application/json`
      : 'The Content-Type header is missing: send the request as application/json',
  );
}
