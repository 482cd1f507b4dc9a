import { describe, expect, it } from '@jest/globals';
import { toHttpProblem } from '@suite/errors';
import { ModelRegistry } from '@suite/jobs';
import { InstructionCheckService } from './instruction-check.service.js';

const llm = new ModelRegistry({ llmModels: [{ name: 'gpt-4.1-mini', provider: 'openai' }] });

describe('InstructionCheckService', () => {
  const service = new InstructionCheckService(new ModelRegistry());

  it('reads the steps as the interpreter will', () => {
    expect(service.check({ query: 'Open https://example.com\nClick "More"' })).toEqual({
      model: 'instruction-interpreter',
      readable: true,
      steps: [
        { index: 1, text: 'Open https://example.com', action: 'navigate' },
        { index: 2, text: 'Click "More"', action: 'click' },
      ],
    });
  });

  it('names the steps it cannot read, with the phrasings it knows, as a finding rather than an error', () => {
    const check = service.check({ query: 'Click Save\nFrobnicate the widget' });
    expect(check).toMatchObject({
      readable: false,
      steps: [],
      unknown: [{ index: 2, text: 'Frobnicate the widget' }],
      summary: expect.stringMatching(/^Could not understand 1 of 2 steps/),
    });
    expect(check.phrasings!.length).toBeGreaterThan(5);
  });

  it('leaves free text to an LLM model, and refuses an invalid request as POST /v1/jobs does', () => {
    expect(
      new InstructionCheckService(llm).check({ query: 'Buy the cheapest mug', model: 'gpt-4.1-mini' }),
    ).toEqual({
      model: 'gpt-4.1-mini',
      readable: true,
      steps: [],
    });
    for (const body of [{}, { query: '' }, { query: 'Click x', env: 'moon' }, 'not an object']) {
      let status = 0;
      try {
        service.check(body);
      } catch (error) {
        status = toHttpProblem(error).status;
      }
      expect(status).toBe(422);
    }
  });
});
