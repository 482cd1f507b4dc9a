import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { jobSteps, observeJobStates, renderMetrics } from './metrics.js';
import { traceSteps } from './step-spans.js';
import { withSpan } from './trace-context.js';

const sampleLine = (text: string, prefix: string): string | undefined =>
  text.split('\n').find((line) => line.startsWith(prefix));

describe('scrape-time gauges', () => {
  it('read their source on scrape, once per cache window, and keep the last values when it fails', async () => {
    let reads = 0;
    let fail = false;
    observeJobStates(async () => {
      reads++;
      if (fail) throw new Error('database down');
      return { queued: 3, running: 1 };
    }, 60_000);
    const first = (await renderMetrics()).body;
    expect(sampleLine(first, 'suite_jobs{state="queued"}')).toBe('suite_jobs{state="queued"} 3');
    expect(sampleLine(first, 'suite_jobs{state="running"}')).toBe('suite_jobs{state="running"} 1');
    await renderMetrics();
    expect(reads).toBe(1);

    observeJobStates(async () => {
      reads++;
      if (fail) throw new Error('database down');
      return { queued: 5 };
    }, 0);
    expect(sampleLine((await renderMetrics()).body, 'suite_jobs{state="queued"}')).toBe(
      'suite_jobs{state="queued"} 5',
    );
    fail = true;
    const during = (await renderMetrics()).body;
    expect(reads).toBe(3);
    expect(sampleLine(during, 'suite_jobs{state="queued"}')).toBe('suite_jobs{state="queued"} 5');
  });

  it('renders the text exposition format', async () => {
    const { contentType, body } = await renderMetrics();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain('# TYPE suite_job_duration_seconds histogram');
    expect(body).toContain('# TYPE suite_auth_outcomes_total counter');
  });
});

describe('step spans from a job log', () => {
  const exporter = new InMemorySpanExporter();
  const processor = new SimpleSpanProcessor({ exporter });
  const sdk = new NodeSDK({ spanProcessors: [processor], instrumentations: [] });
  beforeAll(() => sdk.start());
  afterAll(() => sdk.shutdown());

  it('are children of the job span, named by action, timed by the log, and counted by outcome', async () => {
    const passedBefore = (await jobSteps.get()).values.find((v) => v.labels.outcome === 'passed')?.value ?? 0;
    const jobSpanId = await withSpan('job', async (span) => {
      const steps = traceSteps();
      steps.observe({ step: 1, action: 'click', outcome: 'started', time: '2026-01-01T00:00:00.000Z' });
      steps.observe({ outcome: 'info' });
      steps.observe({ step: 1, action: 'click', outcome: 'passed', time: '2026-01-01T00:00:02.000Z' });
      steps.observe({ step: 2, action: 'assert', outcome: 'started', time: '2026-01-01T00:00:02.000Z' });
      steps.observe({ step: 2, action: 'assert', outcome: 'failed', time: '2026-01-01T00:00:03.000Z' });
      steps.observe({ step: 3, action: 'type', outcome: 'skipped', time: '2026-01-01T00:00:03.000Z' });
      steps.end();
      return span.spanContext().spanId;
    });
    await processor.forceFlush();
    const spans = exporter.getFinishedSpans().filter((s) => s.name.startsWith('browser-step'));
    expect(spans.map((s) => [s.name, s.attributes['step.outcome']])).toEqual([
      ['browser-step click', 'passed'],
      ['browser-step assert', 'failed'],
      ['browser-step type', 'skipped'],
    ]);
    for (const span of spans) expect(span.parentSpanContext?.spanId).toBe(jobSpanId);
    expect(spans[0]!.duration).toEqual([2, 0]);
    const counts = Object.fromEntries((await jobSteps.get()).values.map((v) => [v.labels.outcome, v.value]));
    expect(counts.passed).toBe(passedBefore + 1);
    expect(counts.failed).toBeGreaterThanOrEqual(1);
    expect(counts.skipped).toBeGreaterThanOrEqual(1);
  });
});
