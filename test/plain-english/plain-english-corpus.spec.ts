import { describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expandCases } from '../../bench/support/plain-english-corpus.js';
import { baseline, FAMILIES, PARTS, ROOT } from './corpus-suite.js';

// The cases themselves run in plain-english-corpus-*.spec.ts, a part of the families each.
describe('the plain-English corpus (bench/fixtures/plain-english)', () => {
  it('lists every family file of the corpus, and the baseline names only cases that exist', () => {
    const files = readdirSync(join(ROOT, 'bench', 'fixtures', 'plain-english')).filter(
      (f) => f.endsWith('.ts') && f !== 'corpus.ts' && f !== 'corpus-types.ts',
    );
    expect(files).toHaveLength(FAMILIES.length);
    const ids = new Set(expandCases(FAMILIES).map((c) => c.id));
    const named = [
      ...baseline.passing,
      ...Object.keys(baseline.knownFalsePasses),
      ...Object.keys(baseline.unstable),
    ];
    const unknown = named.filter((id) => !ids.has(id));
    expect(unknown).toEqual([]);
    expect(baseline.passing.every((id) => id.endsWith(':pass'))).toBe(true);
  });

  it('runs every family in exactly one part', () => {
    const inParts = Object.values(PARTS).flat();
    expect(inParts.map((f) => f.family).sort()).toEqual(FAMILIES.map((f) => f.family).sort());
    expect(inParts).toHaveLength(FAMILIES.length);
    expect(FAMILIES.every((family) => inParts.includes(family))).toBe(true);
  });
});
