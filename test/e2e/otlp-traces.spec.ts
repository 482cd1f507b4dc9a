import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { freePort, startApp, waitForHttp, type AppProcess } from '../support/app-process.js';
import { RunnerClient } from '../support/runner-client.js';
import { startSmtpCapture, type SmtpCapture } from '../support/smtp-capture.js';
import { createTestProject, dropTestProject, strongPassword, uniqueEmail } from '../support/user-client.js';
import { deploy } from './project-code-harness.js';
import { startProjectHost } from './user-auth-harness.js';

// Real processes export their spans over OTLP/HTTP to a real receiver below; the spec checks that
// one user action is one trace, linked parent to child across processes and queues.

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  /** 0 unset, 1 ok, 2 error. */
  statusCode: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        status?: { code?: number };
        attributes?: OtlpAttribute[];
      }[];
    }[];
  }[];
}

const SPAN_KIND_SERVER = 2;
/** Booting real processes and running Chromium on a busy CI machine. */
const BOOT_MS = 300_000;
const RUN_MS = 150_000;

const valueOf = (v: OtlpValue): unknown => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;
const attributes = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/**
 * A minimal OTLP/HTTP trace receiver (POST /v1/traces). @opentelemetry/exporter-trace-otlp-http
 * sends the JSON encoding (ids as hex); anything else is answered 415 so the spec fails loudly.
 */
class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly rejected: string[] = [];
  private readonly server: Server = createServer((req, res) => {
    void this.receive(req).then((status) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}'),
    );
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Waits until `predicate` holds over everything received so far. */
  async waitFor<T>(find: (spans: ReceivedSpan[]) => T | undefined, timeoutMs = 40_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find(this.spans);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(
          `no matching spans within ${timeoutMs} ms; received ${this.spans.map((s) => `${s.service}:${s.name}`).join(', ')}; rejected ${this.rejected.join(', ')}`,
        );
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  private async receive(req: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (req.method !== 'POST' || req.url !== '/v1/traces') return 404;
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('application/json')) {
      this.rejected.push(type);
      return 415;
    }
    const payload = JSON.parse(body.toString('utf8')) as OtlpExport;
    for (const resourceSpans of payload.resourceSpans ?? []) {
      const service = String(attributes(resourceSpans.resource?.attributes)['service.name']);
      for (const scope of resourceSpans.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            statusCode: span.status?.code ?? 0,
            attributes: attributes(span.attributes),
          });
    }
    return 200;
  }
}

/** The chain of span names from `span` up to the root of its trace. */
function ancestry(spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const chain = [span];
  for (let at = span; at.parentSpanId;) {
    const parent = spans.find((s) => s.traceId === at.traceId && s.spanId === at.parentSpanId);
    if (!parent) break;
    chain.push(parent);
    at = parent;
  }
  return chain;
}

/** Structured log lines of a process that carry a trace id. */
function tracedLogLines(output: string): { trace_id: string; span_id: string; msg?: string }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { trace_id?: string; span_id?: string; msg?: string })
    .filter((line): line is { trace_id: string; span_id: string; msg?: string } => Boolean(line.trace_id));
}

const receiver = new OtlpReceiver();
let otlpUrl = '';
const apps: AppProcess[] = [];
const telemetryEnv = () => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
  // Export every 200 ms instead of every 5 s, so the spec does not wait on the batch timer.
  OTEL_BSP_SCHEDULE_DELAY: '200',
});

beforeAll(async () => {
  otlpUrl = await receiver.start();
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.stop('SIGKILL')));
  await receiver.close();
});

describe('a browser job is one trace', () => {
  let site: Server;
  let siteUrl = '';
  let api: RunnerClient;
  let worker: AppProcess;
  let artifacts = '';
  const KEY = 'otlp-traces-key';

  beforeAll(async () => {
    site = createServer((req, res) => {
      const page =
        req.url === '/thanks'
          ? '<!doctype html><title>Thanks</title><p>Thanks for signing up!</p>'
          : '<!doctype html><title>Shop</title><label for="e">Email</label><input id="e"><a href="/thanks">Sign up</a>';
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
    artifacts = mkdtempSync(join(tmpdir(), 'otlp-traces-'));
    const env = {
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-otlp-traces`,
      API_KEYS: KEY,
      ARTIFACTS_DIR: artifacts,
      HOST: '127.0.0.1',
      REAPER_INTERVAL_MS: '0',
      LOG_LEVEL: 'info',
      ...telemetryEnv(),
    };
    const port = await freePort();
    const jobsApi = startApp('jobs-api', { ...env, PORT: String(port) });
    apps.push(jobsApi);
    const healthPort = await freePort();
    worker = startApp('browser-worker', { ...env, HEALTH_PORT: String(healthPort) });
    apps.push(worker);
    await waitForHttp(`http://127.0.0.1:${port}/health`, jobsApi);
    await waitForHttp(`http://127.0.0.1:${healthPort}/health`, worker);
    api = new RunnerClient(`http://127.0.0.1:${port}`, KEY);
  }, BOOT_MS);

  afterAll(async () => {
    await new Promise((resolve) => site.close(resolve));
    rmSync(artifacts, { recursive: true, force: true });
  });

  it(
    'links POST /v1/jobs → the worker job span → every browser step span',
    async () => {
      const submitted = await api.request('/v1/jobs', {
        json: {
          query:
            '1. Type "a@b.co" into the Email field\n2. Click Sign up\n3. Verify the page contains "Thanks"',
          initial_url: siteUrl,
        },
      });
      expect(submitted.status).toBe(202);
      const jobId = (submitted.json as { id: string }).id;

      const deadline = Date.now() + 90_000;
      let status = 'queued';
      while (!['succeeded', 'failed'].includes(status) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        status = ((await api.request(`/v1/jobs/${jobId}`)).json as { status: string }).status;
      }
      expect(status).toBe('succeeded');

      const jobSpan = await receiver.waitFor((spans) =>
        spans.find((s) => s.name === 'browser-job.process' && s.attributes['job.id'] === jobId),
      );
      const steps = await receiver.waitFor((spans) => {
        const found = spans.filter((s) => s.traceId === jobSpan.traceId && s.name.startsWith('browser-step'));
        return found.length === 3 ? found : undefined;
      });
      // Each step is a child of the job span, in the worker's service.
      for (const step of steps) {
        expect(step).toMatchObject({ service: 'browser-worker', parentSpanId: jobSpan.spanId });
        expect(step.attributes['step.outcome']).toBe('passed');
      }
      expect(steps.map((s) => s.attributes['step.index']).sort()).toEqual([1, 2, 3]);

      // Up from the job span: the API's span for the request that created it, in the same trace.
      const chain = await receiver.waitFor((spans) => {
        const up = ancestry(spans, jobSpan);
        return up.at(-1)?.kind === SPAN_KIND_SERVER ? up : undefined;
      });
      const root = chain.at(-1)!;
      expect(root).toMatchObject({ service: 'jobs-api', name: 'POST /v1/jobs', parentSpanId: '' });
      expect(root.attributes).toMatchObject({ 'http.route': '/v1/jobs', 'http.response.status_code': 202 });
      expect(new Set(chain.map((s) => s.service))).toEqual(new Set(['jobs-api', 'browser-worker']));
      expect(new Set(chain.map((s) => s.traceId)).size).toBe(1);

      // The worker's log lines written inside the job carry the job span's ids.
      const traced = tracedLogLines(worker.output()).filter((line) => line.trace_id === jobSpan.traceId);
      expect(traced.map((line) => line.msg)).toEqual(expect.arrayContaining(['job claimed', 'job finished']));
      for (const line of traced.filter((l) => l.msg?.startsWith('job ')))
        expect(line.span_id).toBe(jobSpan.spanId);
    },
    RUN_MS,
  );
});

describe('a sign-up is one trace', () => {
  let smtp: SmtpCapture;
  let project: Awaited<ReturnType<typeof createTestProject>>;
  let hostApp: AppProcess;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    // Queues of its own: the mail and hook spans must come from this host, not another spec's.
    const host = await startProjectHost({
      LOG_LEVEL: 'info',
      ...telemetryEnv(),
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-otlp-auth`,
    });
    hostApp = host.app;
    apps.push(hostApp);
    project = await createTestProject({
      databaseUrl: process.env.DATABASE_URL!,
      port: host.port,
      smtpPort: smtp.port,
    });
    // A blocking hook that throws: the request waits for it, logs the failure and answers anyway.
    const deployed = await deploy(host, project.id, {
      'hooks/auth.ts': `import { defineAuthHook } from '@suite/platform-sdk';
        export default defineAuthHook({
          blocking: true,
          timeoutMs: 5000,
          onUserSignedIn: async () => { throw new Error('hook says no'); },
        });`,
    });
    if (deployed.status !== 201) throw new Error(`deploy answered ${deployed.status}: ${deployed.text}`);
  }, BOOT_MS);

  afterAll(async () => {
    await hostApp?.stop();
    await smtp?.close();
    if (project) await dropTestProject(process.env.DATABASE_URL!, project).catch(() => undefined);
  });

  it(
    'links POST /api/user/auth/register → database → mail delivery and the auth hook batch',
    async () => {
      const email = uniqueEmail('otlp');
      const res = await project.client.register(email, strongPassword());
      expect(res.status).toBe(201);
      await smtp.waitFor((m) => m.to.includes(email), 60_000);

      const request = await receiver.waitFor((spans) =>
        spans.find(
          (s) =>
            s.service === 'project-host' &&
            s.name === 'POST /api/user/auth/register' &&
            s.kind === SPAN_KIND_SERVER &&
            spans.some((m) => m.traceId === s.traceId && m.name === 'mail.deliver'),
        ),
      );
      const inTrace = await receiver.waitFor((spans) => {
        const found = spans.filter((s) => s.traceId === request.traceId);
        return found.some((s) => s.name === 'auth-hooks.run') ? found : undefined;
      });
      const byName = (name: string) => inTrace.find((s) => s.name === name)!;
      expect(byName('db.register').parentSpanId).toBe(request.spanId);
      for (const name of ['mail.deliver', 'auth-hooks.run']) {
        const chain = ancestry(inTrace, byName(name));
        expect(chain.at(-1)).toBe(request);
      }
      expect(byName('mail.deliver').attributes['mail.kind']).toBe('welcome');
      expect(byName('auth-hooks.run').attributes['auth.events']).toBe('user.created+user.signed_in');
      expect(byName('auth-hooks.run').statusCode).toBe(2);
      // The request on the host, the mail delivery and the hook run on its project worker.
      expect(new Set(inTrace.map((s) => s.service))).toEqual(new Set(['project-host', 'project-worker']));
      // The delivery's log line carries the trace and the delivery span's ids.
      const sent = tracedLogLines(hostApp.output()).find((line) => line.msg === 'mail sent');
      expect(sent).toMatchObject({ trace_id: request.traceId, span_id: byName('mail.deliver').spanId });
      // A line logged by the request's own code (waiting for the failed hook) carries the request span's ids.
      const hookFailed = tracedLogLines(hostApp.output()).find((line) =>
        line.msg?.startsWith('blocking auth hook'),
      );
      expect(hookFailed).toMatchObject({ trace_id: request.traceId, span_id: request.spanId });
    },
    RUN_MS,
  );
});
