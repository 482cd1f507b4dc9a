import { describe, expect, it } from '@jest/globals';
import { maskSecrets } from './job-record.mapper.js';

describe('maskSecrets', () => {
  it('keeps the names of secrets and hides their values', () => {
    expect(maskSecrets({ ticket: 'QA-1', secrets: { password: 'hunter2', token: 't' } })).toEqual({
      ticket: 'QA-1',
      secrets: { password: '••••••', token: '••••••' },
    });
  });

  it('leaves metadata without secrets as it is', () => {
    expect(maskSecrets({ a: 1 })).toEqual({ a: 1 });
    expect(maskSecrets(null)).toBeNull();
    expect(maskSecrets({ secrets: 'not an object' })).toEqual({ secrets: 'not an object' });
  });
});
