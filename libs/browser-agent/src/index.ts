export {
  type AgentLogEntry,
  type AgentLogInput,
  type AgentLogOptions,
  type AgentLogSink,
  AgentLog,
  formatLogLine,
  type LogLevel,
  type LogOutcome,
  parseAgentLog,
} from './agent-log.js';
export { BrowserPool, type BrowserPoolOptions, BrowserSession } from './browser-pool.js';
export {
  CHROMIUM_ARGS,
  chromiumArgs,
  chromiumEnv,
  type ChromiumSandbox,
  connectHostedBrowser,
  DEFAULT_CHROMIUM_PATH,
  DEFAULT_VIEWPORT,
  displayOf,
  launchLocalBrowser,
  screenFilled,
  type LocalBrowserOptions,
  runningAsRoot,
} from './browser-launcher.js';
export { COMPOSITOR_NICE, watchCompositorPriority } from './compositor-priority.js';
export {
  type BlockedConnection,
  type BrowserNetworkOptions,
  NetworkGuard,
  networkGuardOf,
} from './network-guard.js';
export { EgressProxy, type EgressProxyOptions } from './egress-proxy.js';
export { CURSOR_COLOR, CURSOR_ELEMENT_ID, CursorOverlay } from './cursor-overlay.js';
export {
  describeTarget,
  ElementNotFoundError,
  findOnce,
  type FindOutcome,
  locate,
  type LocateOptions,
  type LocatePreference,
  type LocateResult,
} from './element-locator.js';
export {
  defaultFfmpegPath,
  type EncoderOptions,
  type EncoderResult,
  EncoderPool,
  FfmpegEncoder,
  ffmpegArgs,
  type SpawnEncoder,
} from './ffmpeg-encoder.js';
export { INSTRUCTION_LIMITS, InstructionLimitError } from './instruction-limits.js';
export {
  instructionLimitProblem,
  normalizeUrl,
  parseInstructions,
  type ParseResult,
  SUPPORTED_PHRASINGS,
  type UnknownStep,
} from './instruction-parser.js';
export {
  type InstructionTestOptions,
  type InstructionTestResult,
  runInstructionTest,
} from './instruction-test-runner.js';
export {
  type InterpretedQuery,
  interpretQuery,
  runInterpreter,
  type RunInterpreterOptions,
  type RunResult,
  type StepResolver,
  type StepToResolve,
  type Verdict,
} from './interpreter-agent.js';
export {
  type CancelledOutcome,
  type ErrorOutcome,
  type FailedOutcome,
  type NeedsInputOutcome,
  type PassedOutcome,
  type RunOutcome,
  type RunOutcomeKind,
  verdictOf,
} from './run-outcome.js';
export {
  errorMessage,
  type ExecutedStep,
  StepExecutor,
  type StepExecutorOptions,
  type StepResolution,
  type StepResult,
  type StepResultAction,
  type StepStatus,
  stepBudgetMs,
  type StepView,
  WATCHDOG_SLACK_MS,
} from './step-executor.js';
export { RunGuard, type RunStopKind, RunStoppedError } from './run-guard.js';
export { SecretValues, secretFieldValues, secretsFromMetadata } from './secret-values.js';
export {
  type RecordedRun,
  type RecordingOptions,
  runRecorded,
  type RunVideoOptions,
} from './recorded-run.js';
export {
  exportBlocker,
  exportTestScript,
  jsString,
  secretEnvName,
  TEST_SCRIPT_FORMATS,
  type TestScriptFormat,
  type TestScriptOptions,
} from './script-export/test-script-export.js';
export { describeElement, type ElementLocator } from './element-description-script.js';
export { parseKeys } from './key-names.js';
export { recordAction, type RecordedAction } from './recorded-action.js';
export { PagePointer } from './page-pointer.js';
export {
  DEFAULT_LIMITS,
  LimitExceededError,
  type LimitName,
  resolveLimits,
  type RunLimits,
  StepFailedError,
} from './run-limits.js';
export type { ActionStep } from './step-actions.js';
export { countHolds, textMatches, urlMatches } from './step-assertions.js';
export { compileUserPattern, type UserPattern, UserPatternError } from './user-pattern.js';
export { describeFound, sleep, type StepContext, type StepReport } from './step-context.js';
export {
  type AssertCountStep,
  type AssertElementTextStep,
  type AssertionStep,
  type AssertStateStep,
  type AssertTextStep,
  type AssertTitleStep,
  type AssertUrlStep,
  type AssertValueStep,
  type CheckStep,
  type ClearStep,
  type ClickStep,
  type CountComparison,
  type ElementState,
  type FocusStep,
  type GoBackStep,
  type GoForwardStep,
  type HoverStep,
  isAssertion,
  type MatchMode,
  type NavigateStep,
  type PressStep,
  type ReloadStep,
  type ScrollStep,
  type ScrollToStep,
  type SelectStep,
  type Step,
  type StepAction,
  type StepBody,
  type SubmitStep,
  type Target,
  targetOf,
  type TargetRole,
  type TypeStep,
  type WaitForElementStep,
  type WaitForLoadStep,
  type WaitForTextStep,
  type WaitStep,
} from './step-types.js';
export {
  DEFAULT_VIDEO_BOX,
  defaultVideoSize,
  type RecordedVideo,
  VideoRecorder,
  type VideoRecorderOptions,
  type VideoResult,
  type VideoSource,
} from './video-recorder.js';
export {
  DEFAULT_XVFB_PATH,
  findXvfb,
  VirtualDisplay,
  type VirtualDisplayOptions,
} from './virtual-display.js';
export {
  ScreenRecording,
  type ScreenRecordingFile,
  type ScreenRecordingOptions,
} from './screen-recording.js';
