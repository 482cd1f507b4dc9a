import { describe, expect, it } from '@jest/globals';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth.js';

const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('exceedsJsonDepth', () => {
  it('accepts ordinary bodies and nesting up to the limit', () => {
    expect(exceedsJsonDepth({ query: 'x', metadata: { a: [{ b: 1 }] } })).toBe(false);
    expect(exceedsJsonDepth('text')).toBe(false);
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH))).toBe(false);
  });

  it('refuses deeper nesting without overflowing the stack', () => {
    expect(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth({ metadata: nested(100_000) })).toBe(true);
  });
});
