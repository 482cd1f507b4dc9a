import { describe, expect, it } from '@jest/globals';
import { readStagedParams, SendMessageParamsDto } from '@suite/contracts';
import { requestMetadata, toAuthentication, toMessage } from './a2a-params.js';

// The checks themselves (snake_case names, paths, order): libs/contracts/src/a2a/a2a-params.spec.ts.
const message = (raw: object) =>
  toMessage(readStagedParams(SendMessageParamsDto, { message: raw }, ['message']).rest().message);

describe('A2A params as the gateway reads them', () => {
  it('keeps what a client sent of a message, and drops part fields of the wrong type', () => {
    expect(
      message({
        message_id: 'm',
        context_id: '',
        task_id: 't',
        parts: [
          { text: 'Open /', metadata: 5, filename: 7, media_type: 'text/plain' },
          { data: { initial_url: 'http://x/' }, metadata: { keep_me: 1 } },
        ],
      }),
    ).toEqual({
      messageId: 'm',
      role: 'ROLE_USER',
      taskId: 't',
      parts: [
        { text: 'Open /', mediaType: 'text/plain' },
        { data: { initial_url: 'http://x/' }, metadata: { keep_me: 1 } },
      ],
    });
  });

  it('counts a null part value as sent, as it always did', () => {
    expect(message({ messageId: 'm', parts: [{ data: null }] }).parts).toEqual([{ data: null }]);
  });

  it('leaves empty credentials out and refuses request metadata that is not an object', () => {
    expect(toAuthentication({ scheme: 'Bearer', credentials: '' })).toEqual({ scheme: 'Bearer' });
    expect(toAuthentication(undefined)).toBeUndefined();
    expect(requestMetadata(null)).toBeUndefined();
    expect(() => requestMetadata([1])).toThrow('params.metadata must be an object');
  });
});
