import { describe, expect, it } from '@jest/globals';
import { CreateJobDto, validateBody } from '@suite/contracts';
import { toHttpProblem } from '@suite/errors';
import { ModelRegistry } from '@suite/jobs';
import { InstructionCheckService } from './instruction-check.service.js';

/** The body as `RUNNER_INPUT` hands it to the service (a bad one is the edge's 422). */
const request = (body: unknown) => validateBody(CreateJobDto, body).value;

const llm = new ModelRegistry({ llmModels: [{ name: 'gpt-4.1-mini', provider: 'openai' }] });

describe('InstructionCheckService', () => {
  const service = new InstructionCheckService(new ModelRegistry());

  it('reads the steps as the interpreter will', () => {
    expect(service.check(request({ query: 'Open https://example.com\nClick "More"' }))).toEqual({
      model: 'instruction-interpreter',
      readable: true,
      steps: [
        { index: 1, text: 'Open https://example.com', action: 'navigate' },
        { index: 2, text: 'Click "More"', action: 'click' },
      ],
    });
  });

  it('names the steps it cannot read, with the phrasings it knows, as a finding rather than an error', () => {
    const check = service.check(request({ query: 'Click Save\nFrobnicate the widget' }));
    expect(check).toMatchObject({
      readable: false,
      steps: [],
      unknown: [{ index: 2, text: 'Frobnicate the widget' }],
      summary: expect.stringMatching(/^Could not understand 1 of 2 steps/),
    });
    expect(check.phrasings!.length).toBeGreaterThan(5);
  });

  it('with an LLM provider, reads a job with steps the interpreter cannot read as readable: the model resolves them once', () => {
    const check = new InstructionCheckService(llm).check(
      request({
        query: 'Open https://example.com\nFrobnicate the widget',
        model: 'instruction-interpreter',
      }),
    );
    expect(check).toEqual({
      model: 'instruction-interpreter',
      readable: true,
      steps: [{ index: 1, text: 'Open https://example.com', action: 'navigate' }],
      unknown: [{ index: 2, text: 'Frobnicate the widget' }],
      resolved_by: 'gpt-4.1-mini',
    });
    // A job that opts out of the model is refused as without a provider.
    expect(
      new InstructionCheckService(llm).check(
        request({
          query: 'Frobnicate the widget',
          model: 'instruction-interpreter',
          metadata: { resolve_with_model: false },
        }),
      ),
    ).toMatchObject({ readable: false });
  });

  it('leaves free text to an LLM model, and refuses an invalid request as POST /v1/jobs does', () => {
    expect(
      new InstructionCheckService(llm).check(
        request({ query: 'Buy the cheapest mug', model: 'gpt-4.1-mini' }),
      ),
    ).toEqual({
      model: 'gpt-4.1-mini',
      readable: true,
      steps: [],
    });
    for (const body of [{}, { query: '' }, { query: 'Click x', env: 'moon' }, 'not an object']) {
      let status = 0;
      try {
        service.check(request(body));
      } catch (error) {
        status = toHttpProblem(error).status;
      }
      expect(status).toBe(422);
    }
  });

  it('refuses instructions over the interpreter limits with a 422 naming the limit', () => {
    const detailOf = (query: string, model?: string) => {
      try {
        (model ? new InstructionCheckService(llm) : service).check(
          request({ query, ...(model ? { model } : {}) }),
        );
      } catch (error) {
        const problem = toHttpProblem(error);
        expect(problem.status).toBe(422);
        return (problem.body as { detail: { loc: unknown[]; msg: string }[] }).detail;
      }
      throw new Error('accepted');
    };
    const tooMany = 'Click x\n'.repeat(201);
    expect(detailOf(tooMany)).toEqual([
      expect.objectContaining({
        loc: ['body', 'query'],
        msg: 'Value error, the instructions have more than 200 steps (the limit is 200); split the test into smaller tests',
      }),
    ]);
    // The same bounds whatever model would read the steps.
    expect(detailOf(tooMany, 'gpt-4.1-mini')[0]!.msg).toMatch(/more than 200 steps/);
    expect(detailOf(`Click the ${'very '.repeat(300)}big button`)[0]!.msg).toMatch(
      /step 1 is 1,520 characters long outside quoted text and URLs \(the limit is 1,000 per step\)/,
    );
    // A step with too many ways to split it runs out of its reading budget: the same 422.
    const splits = `${'the url is /x and '.repeat(13)}the "a" "b"\n`.repeat(80);
    expect(detailOf(splits)[0]!.msg).toMatch(/too much work to read \(over 200,000 characters/);
    // Long quoted text is one word: a test typing a long paragraph is read.
    expect(
      service.check(request({ query: `Type "${'lorem ipsum '.repeat(1_000)}" into the message field` })),
    ).toMatchObject({
      readable: true,
    });
  });
});
