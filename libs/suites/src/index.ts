export { scheduleProblem } from './cron-schedule.js';
export { ScheduledRunService, type ScheduledRunDeps, type TickOutcome } from './scheduled-run.service.js';
export { suiteOverviewOf } from './suite-overview.js';
export { toRunDto, toRunTest } from './suite-run.mapper.js';
export { SuiteScheduler } from './suite-scheduler.js';
export {
  notificationEventOf,
  suiteNotification,
  type SuiteNotification,
  type SuiteNotificationEvent,
} from './suite-webhook.js';
export {
  SuiteNameTakenError,
  SuiteRepository,
  type RunJobRef,
  type RunTrigger,
  type StoredSuiteTest,
  type Suite,
  type SuiteData,
  type SuiteRun,
} from './suite.repository.js';
export { jobRequestOf, SuiteService, toSuiteRecord, type SuiteServiceDeps } from './suite.service.js';
export { SuiteInputValidator, type SuiteInputValidatorDeps } from './suite-input.validator.js';
