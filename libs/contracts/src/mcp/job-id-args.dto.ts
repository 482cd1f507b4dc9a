import { ApiProperty } from '@nestjs/swagger';
import { IsString, MinLength } from 'class-validator';

/** Arguments of the MCP tools that act on one job: `get_job`, `get_job_log`, `cancel_job`. */
export class JobIdArgsDto {
  @ApiProperty({
    description: 'The id of a job, as returned by run_browser_test or list_jobs.',
    example: '0b9f6d3e-6c4f-4a53-a0f4-2d1f0d6a9c11',
  })
  @IsString()
  @MinLength(1)
  job_id!: string;
}
