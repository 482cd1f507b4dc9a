import { describe, expect, it } from '@jest/globals';
import { A2aError, A2aErrorCode } from '@suite/errors';
import { Params, readMessage } from './a2a-params.js';

// The snake_case reading and the DTOs' checks: libs/contracts/src/a2a/a2a-params.spec.ts.
describe('A2A SendMessage params', () => {
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
