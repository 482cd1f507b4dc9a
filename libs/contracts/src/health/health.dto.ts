import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Reachability of one dependency. */
export class DependencyCheckDto {
  @ApiProperty({ enum: ['up', 'down'], example: 'up' })
  status!: 'up' | 'down';

  @ApiProperty({ type: 'integer', example: 2 })
  latencyMs!: number;

  @ApiPropertyOptional({
    description: 'Why the dependency is down.',
    example: 'connect ECONNREFUSED 127.0.0.1:6379',
  })
  error?: string;
}

export class HealthChecksDto {
  @ApiProperty({ type: () => DependencyCheckDto })
  postgres!: DependencyCheckDto;

  @ApiProperty({ type: () => DependencyCheckDto })
  redis!: DependencyCheckDto;
}

/** Counts of the browser-job queue and the workers connected to it. */
export class QueueSnapshotDto {
  @ApiProperty({ example: 'browser-jobs' })
  name!: string;

  @ApiProperty({ type: 'integer', description: 'Jobs waiting for a worker.', example: 3 })
  waiting!: number;

  @ApiProperty({ type: 'integer', description: 'Jobs being run.', example: 2 })
  active!: number;

  @ApiProperty({ type: 'integer', example: 0 })
  delayed!: number;

  @ApiProperty({ type: 'integer', example: 1 })
  failed!: number;

  @ApiProperty({ type: 'integer', example: 120 })
  completed!: number;

  @ApiProperty({ type: 'integer', description: 'Workers connected to the queue.', example: 2 })
  workers!: number;
}

/** `GET /health`: liveness plus a queue snapshot; `degraded` when Postgres or Redis is unreachable. */
export class HealthDto {
  @ApiProperty({ enum: ['ok', 'degraded'], example: 'ok' })
  status!: 'ok' | 'degraded';

  @ApiProperty({ example: 'jobs-api' })
  service!: string;

  @ApiProperty({ example: '1.0.0' })
  version!: string;

  @ApiProperty({ type: 'integer', example: 3600 })
  uptimeSeconds!: number;

  @ApiProperty({ type: () => HealthChecksDto })
  checks!: HealthChecksDto;

  @ApiPropertyOptional({ type: () => QueueSnapshotDto, description: 'Present on the runner API.' })
  queue?: QueueSnapshotDto;
}
