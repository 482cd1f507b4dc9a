import { describe, expect, it } from '@jest/globals';
import type { BrowserSession, StepResult } from '@suite/browser-agent';
import type { Page } from 'puppeteer-core';
import { InMemoryJobRepository } from '../../../../libs/jobs/src/testing/index.js';
import type { BrowserWorkerConfig } from '../browser-worker.config.js';
import { type AgentRunContext, InfrastructureError } from './agent-runner.js';
import {
  BrowserRunService,
  type EngineResult,
  jobAgentLog,
  type JobTestOptions,
} from './browser-run.service.js';
import type { BrowserSessions } from './browser-sessions.js';

const CONFIG = {
  NAVIGATION_TIMEOUT_MS: 10_000,
  ACTION_TIMEOUT_MS: 5_000,
  JOB_TIMEOUT_MS: 60_000,
} as BrowserWorkerConfig;

const failed: StepResult = {
  index: 1,
  text: 'Click Launch',
  action: 'click',
  status: 'failed',
  durationMs: 7,
  error: 'nothing matches',
};

/** A skeleton over a fake browser session that says what happened to it. */
function setUp(connected = true) {
  const events: string[] = [];
  const page = { fake: 'page' } as unknown as Page;
  const session = {
    page,
    browser: { connected },
    close: () => {
      events.push('closed');
      return Promise.resolve();
    },
  } as unknown as BrowserSession;
  const browsers = {
    encoders: { fake: 'encoders' },
    videoSource: (env: string) => (env === 'local_browser' ? 'x11grab' : 'browser'),
    acquire: (env: string) => {
      events.push(`acquired ${env}`);
      return Promise.resolve(session);
    },
  } as unknown as BrowserSessions;
  const job = new InMemoryJobRepository().seed({
    query: 'Click Launch',
    metadata: { secrets: { token: 's3cret-t0ken' } },
  });
  const lines: Record<string, unknown>[] = [];
  const context: AgentRunContext = {
    job,
    log: (entry) => {
      lines.push(entry);
      return Promise.resolve();
    },
    videoPath: '/tmp/video.mp4',
    signal: new AbortController().signal,
  };
  return { service: new BrowserRunService(CONFIG, browsers), context, events, lines, page };
}

describe('BrowserRunService: the one frame both engines run in', () => {
  it('hands the engine the job, its page and where to record, and returns the outcome with the steps as the job shows them', async () => {
    const { service, context, events, page } = setUp();
    let given: JobTestOptions | undefined;
    const screenshot = Buffer.from('png');
    const result = await service.run(
      context,
      jobAgentLog(context),
      (options): Promise<EngineResult> => {
        given = options;
        events.push('ran');
        return Promise.resolve({
          outcome: { kind: 'failed', summary: 'Step 1 of 1 failed.', failingStep: failed },
          steps: [failed],
          screenshot,
        });
      },
      () => {
        events.push('recorded');
        return Promise.resolve();
      },
    );
    expect(given).toMatchObject({
      page,
      query: 'Click Launch',
      initialUrl: context.job.initialUrl,
      limits: { navigationTimeoutMs: 10_000, actionTimeoutMs: 5_000, jobTimeoutMs: 60_000 },
      secrets: { token: 's3cret-t0ken' },
      video: { outputPath: '/tmp/video.mp4', source: 'x11grab' },
      failureScreenshot: true,
    });
    expect(result).toEqual({
      outcome: { kind: 'failed', summary: 'Step 1 of 1 failed.', failingStep: failed },
      steps: [
        {
          index: 1,
          text: 'Click Launch',
          action: 'click',
          status: 'failed',
          duration_ms: 7,
          error: 'nothing matches',
        },
      ],
      videoWritten: false,
      screenshot,
    });
    expect(events).toEqual(['acquired local_browser', 'ran', 'recorded', 'closed']);
  });

  it("masks the job's secrets in its log from the first line", async () => {
    const { context, lines } = setUp();
    const { log } = jobAgentLog(context);
    log.info('typed s3cret-t0ken');
    await log.flush();
    expect(lines.map((line) => line.message)).toContain('typed ••••••');
    expect(JSON.stringify(lines)).not.toContain('s3cret-t0ken');
    expect(lines[0]).toMatchObject({ message: expect.stringContaining(`job ${context.job.id}`) });
  });

  it('retries a run whose browser died under it (an infrastructure error), recording nothing, and still closes', async () => {
    const { service, context, events } = setUp(false);
    await expect(
      service.run(
        context,
        jobAgentLog(context),
        () => Promise.resolve({ outcome: { kind: 'passed', summary: 'ok' }, steps: [] }),
        () => {
          events.push('recorded');
          return Promise.resolve();
        },
      ),
    ).rejects.toBeInstanceOf(InfrastructureError);
    expect(events).toEqual(['acquired local_browser', 'closed']);
  });
});
