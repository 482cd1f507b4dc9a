export {
  HttpErrorDto,
  HttpValidationErrorDto,
  ValidationIssueDto,
} from './errors/http-validation-error.dto.js';
export { DependencyCheckDto, HealthChecksDto, HealthDto, QueueSnapshotDto } from './health/health.dto.js';
export { BROWSER_ENV_PATTERN, BrowserEnv } from './jobs/browser-env.enum.js';
export { CancelJobResultDto } from './jobs/cancel-job-result.dto.js';
export { CreateJobDto } from './jobs/create-job.dto.js';
export {
  DEFAULT_START_URL,
  LIST_LIMIT_DEFAULT,
  LIST_LIMIT_MAX,
  LIST_LIMIT_MIN,
  METADATA_MAX_BYTES,
  QUERY_MAX_LENGTH,
} from './jobs/job-limits.js';
export { JobLinksDto } from './jobs/job-links.dto.js';
export { JobListDto } from './jobs/job-list.dto.js';
export { JobRecordDto } from './jobs/job-record.dto.js';
export { FINAL_JOB_STATUSES, JobStatus, StepStatus } from './jobs/job-status.enum.js';
export { JobStepDto } from './jobs/job-step.dto.js';
export { ListJobsQueryDto } from './jobs/list-jobs-query.dto.js';
export { IsOmittable } from './validation/is-omittable.decorator.js';
export { exceedsJsonDepth, MAX_JSON_DEPTH } from './validation/json-depth.js';
export { jsonByteLength, MAX_JSON_BYTES, MaxJsonBytes } from './validation/max-json-bytes.decorator.js';
export { validateBody, validateQuery, type DtoClass, type Validated } from './validation/validate-input.js';
export {
  toValidationIssues,
  type DetailContext,
  type InputMode,
} from './validation/validation-detail.mapper.js';
