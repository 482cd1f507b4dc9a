import { ApiProperty } from '@nestjs/swagger';
import { JobRecordDto } from './job-record.dto.js';

/** `GET /v1/jobs`: the most recent jobs first. */
export class JobListDto {
  @ApiProperty({ type: () => JobRecordDto, isArray: true })
  jobs!: JobRecordDto[];
}
