import { describe, expect, it } from '@jest/globals';
import { A2aError, A2aErrorCode } from '@suite/errors';
import { Params, readMessage, toCamelCase } from './a2a-params.js';

describe('A2A params', () => {
  it('accepts proto snake_case names but leaves keys inside metadata and Part.data as sent', () => {
    expect(
      toCamelCase({
        message: {
          message_id: 'm',
          context_id: 'c',
          metadata: { caller_ref: { keep_me: 1 } },
          parts: [{ data: { initial_url: 'http://x/' }, media_type: 'application/json' }],
        },
        configuration: { return_immediately: true, history_length: 2 },
      }),
    ).toEqual({
      message: {
        messageId: 'm',
        contextId: 'c',
        metadata: { caller_ref: { keep_me: 1 } },
        parts: [{ data: { initial_url: 'http://x/' }, mediaType: 'application/json' }],
      },
      configuration: { returnImmediately: true, historyLength: 2 },
    });
  });

  it('refuses parts that are not exactly one of text, raw, url, data with -32602', () => {
    const message = Params.of({
      message: { messageId: 'm', parts: [{ text: 'a', url: 'http://x' }] },
    }).object('message');
    expect(() => readMessage(message)).toThrow(A2aError);
    try {
      readMessage(message);
    } catch (error) {
      expect((error as A2aError).code).toBe(A2aErrorCode.InvalidParams);
      expect((error as A2aError).message).toMatch(/parts\[0\]/);
    }
  });

  it('names the field of an out-of-range integer', () => {
    expect(() => Params.of({ page_size: 0 }).int('pageSize', 1, 100)).toThrow(
      'params.pageSize must be an integer from 1 to 100',
    );
    expect(Params.of({ page_size: '5' }).int('pageSize', 1, 100)).toBe(5);
  });
});
