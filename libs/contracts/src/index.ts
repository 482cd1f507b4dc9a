export {
  HttpErrorDto,
  HttpValidationErrorDto,
  ValidationIssueDto,
} from './errors/http-validation-error.dto.js';
export { DependencyCheckDto, HealthChecksDto, HealthDto, QueueSnapshotDto } from './health/health.dto.js';
export { BROWSER_ENV_PATTERN, BrowserEnv } from './jobs/browser-env.enum.js';
export { API_DOCS_HEADERS, serveApiDocs, type ApiDocsOptions, type DocsRequest } from './openapi/api-docs.js';
export { UserErrorDto } from './errors/user-error.dto.js';
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
export { dtoJsonSchema, type JsonSchemaObject } from './validation/dto-json-schema.js';
export { containsNul, NoNulCharacters, NUL_MESSAGE } from './validation/no-nul-characters.decorator.js';
export { JobIdArgsDto } from './mcp/job-id-args.dto.js';
export { ListJobsArgsDto } from './mcp/list-jobs-args.dto.js';
export {
  RUN_WAIT_SECONDS_DEFAULT,
  RUN_WAIT_SECONDS_MAX,
  RunBrowserTestArgsDto,
} from './mcp/run-browser-test-args.dto.js';
export { exceedsJsonDepth, MAX_JSON_DEPTH } from './validation/json-depth.js';
export { jsonByteLength, MAX_JSON_BYTES, MaxJsonBytes } from './validation/max-json-bytes.decorator.js';
export { validateDto, type DtoCheck, type DtoClass, type DtoOptions } from './validation/validate-dto.js';
export { validateBody, validateItem, validateQuery, type Validated } from './validation/validate-input.js';
export { CreateSuiteDto } from './suites/create-suite.dto.js';
export { ListSuiteRunsQueryDto } from './suites/list-suite-runs-query.dto.js';
export * from './suites/suite-limits.js';
export {
  FlippingTestDto,
  SUITE_OVERVIEW_RUNS_DEFAULT,
  SUITE_OVERVIEW_RUNS_MAX,
  SuiteOverviewDto,
  SuiteOverviewListDto,
  SuiteOverviewQueryDto,
  SuiteRunBriefDto,
} from './suites/suite-overview.dto.js';
export { SuiteListDto, SuiteRecordDto } from './suites/suite-record.dto.js';
export {
  FailingStepDto,
  SuiteRunDto,
  SuiteRunListDto,
  SuiteRunStatus,
  SuiteRunTestDto,
  SuiteTestVerdict,
} from './suites/suite-run.dto.js';
export { SuiteTestDto } from './suites/suite-test.dto.js';
export { validateUserInput } from './validation/validate-user-input.js';
export { toFieldProblems } from './validation/field-problems.mapper.js';
export { toFirstFieldProblem } from './validation/first-field-problem.mapper.js';
export { ADMIN_INPUT, DtoInputPipe, RUNNER_INPUT, USER_INPUT } from './validation/dto-input.pipe.js';
export { validateAdminInput } from './validation/validate-admin-input.js';
export { AddDomainDto, normaliseDomain } from './control-plane/add-domain.dto.js';
export { AdminTokenCheckDto } from './control-plane/admin-token-check.dto.js';
export { appSchemeProblem, normaliseAppScheme, REFUSED_SCHEMES } from './control-plane/app-schemes.js';
export { AuthSettingsDto, IDP_MODES, MAX_REDIRECT_SCHEMES } from './control-plane/auth-settings.dto.js';
export { CreateProjectDto } from './control-plane/create-project.dto.js';
export {
  EmailsQueryDto,
  MAIL_STATUSES,
  PAGE_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PageQueryDto,
  UsersQueryDto,
} from './control-plane/list-queries.dto.js';
export { isReservedSlug, RESERVED_SLUGS } from './control-plane/reserved-slugs.js';
export { isMailbox, SmtpSettingsDto } from './control-plane/smtp-settings.dto.js';
export { SendTestMailDto } from './control-plane/send-test-mail.dto.js';
export { MoveProjectDto } from './control-plane/move-project.dto.js';
export { DASHBOARD_FORMS, type DashboardForm, ValidateFormDto } from './control-plane/validate-form.dto.js';
export { NoControlCharacters } from './validation/no-control-characters.decorator.js';
export { CodeDto } from './user-auth/code.dto.js';
export { ForgotPasswordDto } from './user-auth/forgot-password.dto.js';
export { LoginDto } from './user-auth/login.dto.js';
export { MagicLinkQueryDto } from './user-auth/magic-link-query.dto.js';
export { RefreshDto } from './user-auth/refresh.dto.js';
export { RegisterDto } from './user-auth/register.dto.js';
export { ResetPasswordDto } from './user-auth/reset-password.dto.js';
export { UpdateMeDto } from './user-auth/update-me.dto.js';
export {
  CODE_MAX_LENGTH,
  EMAIL_ADDRESS,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
} from './user-auth/user-auth-fields.js';
export {
  toValidationIssues,
  type DetailContext,
  type InputMode,
} from './validation/validation-detail.mapper.js';
export { INT32_MAX } from './a2a/a2a-fields.js';
export {
  invalidParams,
  readA2aParams,
  readStagedParams,
  readTaskScopedParams,
  toCamelCase,
  type StagedParams,
  type TaskScopedParams,
} from './a2a/a2a-params.validate.js';
export { GetTaskParamsDto, ListTasksParamsDto, TaskIdParamsDto } from './a2a/task-params.dto.js';
export {
  AuthenticationInfoDto,
  CreatePushConfigParamsDto,
  ListPushConfigsParamsDto,
  PushConfigFieldsDto,
  PushConfigRefParamsDto,
} from './a2a/push-config-params.dto.js';
export {
  InlinePushConfigDto,
  MessageDto,
  PartDto,
  SendConfigurationDto,
  SendMessageParamsDto,
} from './a2a/send-message-params.dto.js';
