import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { CreateJobDto, HttpValidationErrorDto, RUNNER_INPUT } from '@suite/contracts';
import { RunnerApi } from '../auth/runner-api.decorator.js';
import { InstructionCheckService, type InstructionCheck } from './instruction-check.service.js';

@RunnerApi('jobs')
@Controller('v1/instructions')
export class InstructionCheckController {
  constructor(private readonly instructions: InstructionCheckService) {}

  @Post('check')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Check a job request without queueing it',
    description:
      'Takes the body of `POST /v1/jobs` and reads its instructions as the worker would, queueing nothing. With the built-in interpreter: `readable` and the steps it read, or `readable: false` with `summary`, `unknown` (the steps it cannot read: `index`, `text`) and `phrasings` (the forms it understands); such a job would fail at once. With an LLM provider configured (the hybrid engine) such a job is `readable`: `unknown` lists the steps the model will resolve on the first run and `resolved_by` names the model (the resolved actions are stored and replayed offline after that; `metadata.resolve_with_model: false` opts out). An LLM model reads free text, so only the request itself is checked. An invalid request is a 422, as for `POST /v1/jobs`.',
  })
  @ApiBody({ type: CreateJobDto })
  @ApiOkResponse({
    description: 'Whether the job\u2019s steps can be read, the steps, and if not, why.',
    schema: {
      type: 'object',
      required: ['model', 'readable', 'steps'],
      properties: {
        model: { type: 'string', example: 'instruction-interpreter' },
        readable: { type: 'boolean', example: false },
        steps: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              index: { type: 'integer', example: 1 },
              text: { type: 'string', example: 'open https://example.com' },
              action: { type: 'string', example: 'navigate' },
            },
          },
        },
        summary: { type: 'string', example: 'Could not understand 1 of 2 steps, so the test was not run: …' },
        unknown: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              index: { type: 'integer', example: 2 },
              text: { type: 'string', example: 'frobnicate the widget' },
            },
          },
        },
        phrasings: { type: 'array', items: { type: 'string' } },
        resolved_by: {
          type: 'string',
          example: 'gpt-4.1-mini',
          description: 'With an LLM provider: the model that resolves the `unknown` steps once.',
        },
      },
    },
  })
  @ApiUnprocessableEntityResponse({
    description: 'The request is invalid (the same rules as `POST /v1/jobs`).',
    type: HttpValidationErrorDto,
  })
  check(@Body(RUNNER_INPUT) request: CreateJobDto): InstructionCheck {
    return this.instructions.check(request);
  }
}
