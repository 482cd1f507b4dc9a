import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTelemetry, type Telemetry } from './telemetry-sdk.js';
import { currentTraceIds, extractTraceContext, injectTraceContext, withSpan } from './trace-context.js';

describe('trace context in queue payloads', () => {
  let telemetry: Telemetry;
  beforeAll(() => {
    telemetry = startTelemetry({ serviceName: 'telemetry-spec' });
  });
  afterAll(() => telemetry.shutdown());

  it('does not export when no endpoint is configured', () => {
    expect(telemetry.exporting).toBe(false);
  });

  it('carries the producer trace to the consumer through JSON', async () => {
    let producerTraceId = '';
    const payload = await withSpan('enqueue', async () => {
      producerTraceId = currentTraceIds()!.traceId;
      return JSON.parse(JSON.stringify({ jobId: 'j1', trace: injectTraceContext() }));
    });
    expect(payload.trace.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);

    const consumer = await withSpan(
      'process',
      async (span) => ({ traceId: span.spanContext().traceId, ids: currentTraceIds() }),
      { parent: extractTraceContext(payload.trace) },
    );
    expect(consumer.traceId).toBe(producerTraceId);
    expect(consumer.ids?.spanId).toMatch(/^[0-9a-f]{16}$/);
  });

  it('starts a fresh trace when the payload carries none', async () => {
    const first = await withSpan('process', async (span) => span.spanContext().traceId, {
      parent: extractTraceContext(undefined),
    });
    const second = await withSpan('process', async (span) => span.spanContext().traceId, {
      parent: extractTraceContext({}),
    });
    expect(first).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
    expect(injectTraceContext()).toEqual({});
  });

  it('marks the span as failed and rethrows', async () => {
    await expect(
      withSpan('boom', async () => {
        throw new Error('step failed');
      }),
    ).rejects.toThrow('step failed');
  });
});
