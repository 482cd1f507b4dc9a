import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { StepStatus } from './job-status.enum.js';

/** One step of a job's instructions and how it went. */
export class JobStepDto {
  @ApiProperty({
    description: 'Position of the step in the instructions, starting at 1.',
    type: 'integer',
    example: 2,
  })
  index!: number;

  @ApiProperty({ description: 'The instruction as written.', example: 'click "More information"' })
  text!: string;

  @ApiProperty({
    description:
      'What the agent did: open, click, type, press, select, check, hover, scroll, wait, assert_text…',
    example: 'click',
  })
  action!: string;

  @ApiProperty({ enum: StepStatus, enumName: 'StepStatus', example: StepStatus.Passed })
  status!: StepStatus;

  @ApiProperty({ description: 'Time spent on the step.', type: 'integer', nullable: true, example: 412 })
  duration_ms!: number | null;

  @ApiProperty({
    description: 'Why the step failed; null when it passed or was skipped.',
    type: 'string',
    nullable: true,
    example: null,
  })
  error!: string | null;

  @ApiPropertyOptional({
    description:
      'Who read the step, for the built-in interpreter with an LLM provider configured (the hybrid engine): `interpreted` (the interpreter read it), `model` (the model resolved it on this run), `replayed` (the actions the model took earlier, replayed with no model call), `healed` (a replayed action that no longer found its target, resolved again by the model). Absent for other engines.',
    enum: ['interpreted', 'model', 'replayed', 'healed'],
    example: 'replayed',
  })
  resolved_by?: 'interpreted' | 'model' | 'replayed' | 'healed';
}
