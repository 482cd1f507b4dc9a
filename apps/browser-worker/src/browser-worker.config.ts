import {
  ARTIFACT_SENSITIVE,
  artifactEnv,
  artifactEnvProblems,
  ConfigError,
  envFields,
  exitOnConfigError,
  LLM_SENSITIVE,
  llmEnv,
  loadConfigOrExit,
  runnerQueueEnv,
  serviceEnv,
  z,
} from '@suite/config';
import { dnsServerProblems, NETWORK_MODES, parseAllowList } from '@suite/egress-policy';
import { servedLlmModels, type LlmModelRegistry } from '@suite/llm-agent';
import { webhookEnv } from '@suite/push-delivery';
import { cpus } from 'node:os';

export const browserWorkerEnv = z.object({
  ...serviceEnv,
  ...llmEnv,
  /** Model turns an LLM agent may take in one job. */
  LLM_MAX_STEPS: envFields.positiveInt(25),
  /** Health/metrics listener; 0 disables it (e.g. many workers on one machine without ports). */
  HEALTH_PORT: envFields.port(8083),
  WORKER_ID: z.string().min(1).optional(),
  /** Jobs run at once by this process; one browser context each. Default: one per core, max 4. */
  WORKER_CONCURRENCY: envFields.positiveInt(Math.min(4, Math.max(1, cpus().length))),
  CHROMIUM_PATH: z.string().min(1).optional(),
  /**
   * `auto`: Chromium keeps its own sandbox unless the worker runs as root; `off`: never use it
   * (unsafe; only where the sandbox cannot start, e.g. a container that forbids user namespaces).
   */
  CHROMIUM_SANDBOX: z.enum(['auto', 'off'], { error: 'must be auto or off' }).default('auto'),
  /**
   * How job videos are captured (issue 37): `x11grab` (experimental, opt-in) runs each job slot's
   * Chromium headful on a virtual display of its own (Xvfb) and ffmpeg grabs the screen, outside the
   * browser; `browser` (the default)
   * records with Chromium's own recorder (the screencast where it has none); `screencast` always
   * with the DevTools screencast. Without an Xvfb binary, `x11grab` falls back to `browser` (one
   * log line at start). Hosted browsers always record in the browser.
   */
  VIDEO_CAPTURE: z
    .enum(['x11grab', 'browser', 'screencast'], { error: 'must be x11grab, browser or screencast' })
    .default('browser'),
  /** The Xvfb binary of the `x11grab` capture. Default: /usr/bin/Xvfb. */
  XVFB_PATH: z.string().min(1).optional(),
  /** ARTIFACTS_DIR, ARTIFACT_STORE, ARTIFACT_DOWNLOAD, S3_*: where job artifacts live. */
  ...artifactEnv,
  /** RUNNER_MAX_QUEUED_PER_OWNER, RUNNER_MAX_RUNNING_PER_OWNER, RUNNER_DISPATCH_AHEAD: fair share. */
  ...runnerQueueEnv,
  /** Wall clock of one job, from claim to verdict. */
  JOB_TIMEOUT_MS: envFields.positiveInt(5 * 60_000),
  /** Longest wait for one action's element or effect. */
  ACTION_TIMEOUT_MS: envFields.positiveInt(10_000),
  NAVIGATION_TIMEOUT_MS: envFields.positiveInt(30_000),
  /** How soon a job of a killed worker is noticed and handed out again. */
  STALLED_INTERVAL_MS: envFields.positiveInt(30_000),
  /** Repairs and retention sweep; 0 disables it on this worker. */
  REAPER_INTERVAL_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).default(60_000),
  ARTIFACT_RETENTION_DAYS: envFields.positiveInt(30),
  /**
   * Where job browsers may connect, checked on the address actually connected to: `public-only`
   * refuses loopback, private (RFC 1918, IPv6 ULA) and CGNAT addresses; `allow-private` lets them
   * through (testing an app on your own machine). Link-local and cloud metadata addresses,
   * multicast and 0.0.0.0 are refused in both unless BROWSER_ALLOWED_HOSTS lists them.
   * `make start` sets allow-private; everywhere else the default is public-only.
   */
  BROWSER_NETWORK_POLICY: z
    .enum(NETWORK_MODES, { error: 'must be public-only or allow-private' })
    .default('public-only'),
  /** Hosts, host:port pairs, IPs and CIDRs job browsers may reach whatever the policy says. */
  BROWSER_ALLOWED_HOSTS: envFields.list().superRefine((entries, ctx) => {
    for (const problem of parseAllowList(entries).problems)
      ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** DNS servers (`ip`, `ip:port`) the browsers' proxy resolves with; unset: the system resolver. */
  BROWSER_DNS_SERVERS: envFields.list().superRefine((servers, ctx) => {
    for (const problem of dnsServerProblems(servers)) ctx.addIssue({ code: 'custom', message: problem });
  }),
  /** Let job browsers download files (into a throw-away folder per job). */
  BROWSER_ALLOW_DOWNLOADS: envFields.bool(false),
  HOSTED_BROWSER_WS_URL: z
    .string()
    .refine((v) => /^wss?:\/\//.test(v) && URL.canParse(v), 'must be a ws:// or wss:// URL')
    .optional(),
  /** Scheduled suite runs followed at once by this process (each waits for its jobs); 0: none here. */
  SUITE_SCHEDULE_CONCURRENCY: z.coerce.number({ error: 'must be a number' }).int().min(0).default(16),
  /** How often a scheduled run's jobs are looked at. */
  SUITE_RUN_POLL_MS: envFields.positiveInt(2_000),
  /** PUSH_ALLOWED_HOSTS, PUSH_DNS_SERVERS: where suite webhooks may go (as A2A push webhooks). */
  ...webhookEnv,
  /** One suite webhook POST waits this long before it counts as failed. */
  PUSH_TIMEOUT_MS: envFields.positiveInt(10_000),
});
export type BrowserWorkerConfig = z.infer<typeof browserWorkerEnv> & { llm: LlmModelRegistry };

export function loadBrowserWorkerConfig(env: NodeJS.ProcessEnv = process.env): BrowserWorkerConfig {
  const config = loadConfigOrExit('browser-worker', browserWorkerEnv, env, {
    sensitive: [...LLM_SENSITIVE, ...ARTIFACT_SENSITIVE],
  });
  const served = servedLlmModels(config);
  const problems = [...('problem' in served ? [served.problem] : []), ...artifactEnvProblems(config)];
  if (problems.length || 'problem' in served)
    return exitOnConfigError(new ConfigError('browser-worker', problems));
  return { ...config, llm: served.registry };
}
