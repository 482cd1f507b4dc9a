import { describe, expect, it } from '@jest/globals';
import { INSTRUCTION_LIMITS, InstructionLimitError } from './instruction-limits.js';
import { instructionLimitProblem, parseInstructions } from './instruction-parser.js';
import { interpretQuery } from './interpreter-agent.js';

// Hostile instruction text: every input below is read to its end with the right answer (the time
// each takes is measured in bench/, not asserted here).

describe('instruction limits', () => {
  it('reads 200 steps, and refuses 201 naming the limit', () => {
    const steps = (n: number) => Array.from({ length: n }, (_, i) => `Click "Item ${i + 1}"`).join('\n');
    expect(parseInstructions(steps(INSTRUCTION_LIMITS.steps)).steps).toHaveLength(200);
    expect(instructionLimitProblem(steps(200))).toBeUndefined();
    expect(instructionLimitProblem(steps(201))).toBe(
      'the instructions have more than 200 steps (the limit is 200); split the test into smaller tests',
    );
    expect(() => parseInstructions(steps(201))).toThrow(InstructionLimitError);
    // Steps that only appear once a line is split at its "and"s count too.
    const joined = Array.from({ length: 101 }, () => 'the title is "a" and the URL contains "b"').join('\n');
    expect(instructionLimitProblem(joined)).toBeUndefined();
    expect(() => parseInstructions(joined)).toThrow(/more than 200 steps/);
  });

  it('refuses a step longer than 1,000 characters outside its quotes, but not a long quoted text', () => {
    const paragraph = 'lorem ipsum '.repeat(500);
    expect(parseInstructions(`Type "${paragraph}" into the message field`).steps).toHaveLength(1);
    expect(instructionLimitProblem(`Open https://example.com/${'a'.repeat(5_000)}`)).toBeUndefined();
    expect(instructionLimitProblem(`Click Save\nClick the ${'very '.repeat(250)}big button`)).toBe(
      'step 2 is 1,270 characters long outside quoted text and URLs (the limit is 1,000 per step); write one step per line or sentence',
    );
  });

  it('says in the job summary which limit the query is over, reading nothing', () => {
    const read = interpretQuery('Click x\n'.repeat(300));
    expect(read).toMatchObject({
      ok: false,
      steps: [],
      unknown: [],
      limit: expect.stringMatching(/200 steps/),
    });
    expect(!read.ok && read.summary).toMatch(
      /^The instructions were not read: the instructions have more than 200 steps/,
    );
  });

  it('reads long adversarial lines to the end', () => {
    const cases: [string, number, number][] = [
      [' '.repeat(20_000), 0, 0],
      [`a${' '.repeat(19_998)}!`, 0, 1],
      ['"a'.repeat(10_000), 0, 0],
      ['“a'.repeat(10_000), 0, 0],
      ['«a'.repeat(10_000), 0, 0],
      ['e.g. '.repeat(4_000), 0, 0],
      [`x${','.repeat(19_998)}y`, 0, 0],
      [`Click Save${' .'.repeat(9_990)}`, 1, 0],
    ];
    for (const [query, steps, unknown] of cases) {
      let parsed: { steps: unknown[]; unknown: unknown[] } | undefined;
      try {
        parsed = parseInstructions(query);
      } catch (error) {
        expect(error).toBeInstanceOf(InstructionLimitError);
        parsed = { steps: [], unknown: [] };
      }
      expect([query.slice(0, 12), parsed.steps.length, parsed.unknown.length]).toEqual([
        query.slice(0, 12),
        steps,
        unknown,
      ]);
    }
    // Hosts and schemes: "a.a.a…" is one word, not 10,000 places a URL might start.
    expect(instructionLimitProblem('a.'.repeat(10_000))).toMatch(/^step 1 is 19,999 characters long/);
    expect(parseInstructions(`Open ${'a.'.repeat(9_990)}com`).steps).toHaveLength(1);
    expect(parseInstructions(`Open ${'a+.'.repeat(6_000)}x://y`).steps).toHaveLength(1);
  });

  it('reads a step with many "and"s once per tail, not once per way of splitting it', () => {
    // Each "the URL is /x" reads as a step, the end never does: without a memo this is 2^40 readings.
    const query = `${'the url is /x and '.repeat(40)}the "a" "b"`;
    const parsed = parseInstructions(query);
    expect(parsed.steps).toEqual([]);
    expect(parsed.unknown).toHaveLength(1);
    // Splitting still works where it should.
    expect(
      parseInstructions('the title is "A" and the URL contains "b" and the page contains "c"').steps.map(
        (s) => s.action,
      ),
    ).toEqual(['assertTitle', 'assertUrl', 'assertText']);
  });
});
