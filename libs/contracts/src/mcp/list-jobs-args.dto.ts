import { PickType } from '@nestjs/swagger';
import { ListJobsQueryDto } from '../jobs/list-jobs-query.dto.js';

/** Arguments of the MCP tool `list_jobs`: the `limit` and `status` of `GET /v1/jobs`, same rules. */
export class ListJobsArgsDto extends PickType(ListJobsQueryDto, ['limit', 'status'] as const) {}
