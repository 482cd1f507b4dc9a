import { describe, expect, it } from '@jest/globals';
import { A2aError } from '@suite/errors';
import { checkInputModes, contentTypeError, isAcceptedPart } from './media-types.js';

const message = (parts: object[]) => ({ messageId: 'm', role: 'ROLE_USER' as const, parts });

describe('A2A media types', () => {
  it('reads text and JSON data parts, not files', () => {
    expect(isAcceptedPart({ text: 'Open /' })).toBe(true);
    expect(isAcceptedPart({ text: 'Open /', mediaType: 'Text/Markdown; charset=utf-8' })).toBe(true);
    expect(isAcceptedPart({ data: { model: 'x' }, mediaType: 'application/vnd.run+json' })).toBe(true);
    expect(isAcceptedPart({ text: 'Open /', mediaType: 'image/png' })).toBe(false);
    expect(isAcceptedPart({ data: {}, mediaType: 'application/xml' })).toBe(false);
    expect(isAcceptedPart({ raw: 'AAAA', mediaType: 'text/plain' })).toBe(false);
    expect(isAcceptedPart({ url: 'https://example.com/a.json', mediaType: 'application/json' })).toBe(false);
  });

  it('refuses a message with no part it reads with -32005, naming what it has and what it reads', () => {
    expect(() => checkInputModes(message([{ text: 'Open /' }, { raw: 'AAAA' }]))).not.toThrow();
    let error: unknown;
    try {
      checkInputModes(
        message([{ raw: 'AAAA', mediaType: 'application/octet-stream' }, { url: 'https://x/y' }]),
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(A2aError);
    expect(error).toMatchObject({ code: -32005 });
    expect((error as Error).message).toBe(
      'Incompatible content types: this agent reads text/plain and application/json parts (text instructions, JSON data with job options); the message has only application/octet-stream, a file URL.',
    );
  });

  it('takes JSON request bodies only', () => {
    expect(contentTypeError('application/json; charset=utf-8')).toBeUndefined();
    expect(contentTypeError(['application/a2a+json'])).toBeUndefined();
    expect(contentTypeError('text/plain')).toMatchObject({
      code: -32005,
      message: 'Content-Type "text/plain" is not supported: send the request as application/json',
    });
    expect(contentTypeError(undefined)?.message).toBe(
      'The Content-Type header is missing: send the request as application/json',
    );
  });
});
