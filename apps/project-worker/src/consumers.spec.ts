import { describe, expect, it } from '@jest/globals';
import type {
  ActiveDeployment,
  ActiveDeployments,
  ProjectJobsQueue,
  SandboxCall,
  ProjectSandboxes,
} from '@suite/project-runtime';
import type { QueueName, TypedJob } from '@suite/queue';
import { UnrecoverableError } from 'bullmq';
import { AuthHooksConsumer } from './auth-hooks.consumer.js';
import type { ProjectWorkerConfig } from './project-worker.config.js';
import { ProjectJobsConsumer } from './project-jobs.consumer.js';

// What the consumers ask of the runtime, over an in-memory active deployment and sandbox.

const deployment: ActiveDeployment = {
  id: 'dep-1',
  version: 3,
  env: { GREETING: 'hi' },
  routes: new Map(),
  hook: { entry: 'hooks/auth.ts', blocking: false, timeoutMs: 7_000, handlers: ['onUserCreated'] },
  jobs: new Map([['welcome', { name: 'welcome', entry: 'jobs/welcome.ts', timeoutMs: 9_000 }]]),
  tools: new Map(),
  bundles: { 'hooks/auth.ts': 'export default 1', 'jobs/welcome.ts': 'export default 2' },
};

function runtime(active: ActiveDeployment | null) {
  const calls: { projectId: string; call: SandboxCall; timeoutMs: number }[] = [];
  const deployments = { get: async () => active } as unknown as ActiveDeployments;
  const sandboxes = {
    call: async (projectId: string, call: SandboxCall, timeoutMs: number) => {
      calls.push({ projectId, call, timeoutMs });
      return call.op === 'hook'
        ? { ran: [{ kind: 'user.created', handler: 'onUserCreated' }] }
        : { value: 42 };
    },
  } as unknown as ProjectSandboxes;
  return { calls, deployments, sandboxes };
}

const config = { REDIS_URL: 'redis://unused' } as ProjectWorkerConfig;
const user = { id: 'u1', email: 'ada@example.com', name: null, picture: null };

describe('AuthHooksConsumer', () => {
  const batch = {
    data: { projectId: 'p1', events: [{ kind: 'user.created', user, at: 'now' }], trace: {} },
  } as TypedJob<typeof QueueName.AuthHooks>;

  it('runs the active deployment’s hook with the batch, its env and its budget', async () => {
    const { calls, deployments, sandboxes } = runtime(deployment);
    const result = await new AuthHooksConsumer(config, deployments, sandboxes).process(batch);
    expect(result).toEqual({ ran: [{ kind: 'user.created', handler: 'onUserCreated' }] });
    expect(calls).toEqual([
      {
        projectId: 'p1',
        call: {
          op: 'hook',
          key: 'dep-1:hooks/auth.ts',
          code: 'export default 1',
          events: batch.data.events,
          env: { GREETING: 'hi' },
        },
        timeoutMs: 7_000,
      },
    ]);
  });

  it('skips a batch when the active deployment has no hook', async () => {
    const { calls, deployments, sandboxes } = runtime({ ...deployment, hook: null });
    const result = await new AuthHooksConsumer(config, deployments, sandboxes).process(batch);
    expect(result).toEqual({ skipped: 'no auth hook deployed' });
    expect(calls).toEqual([]);
  });
});

describe('ProjectJobsConsumer', () => {
  const queue = {} as ProjectJobsQueue;
  const run = (name: string) =>
    ({
      id: 'job-9',
      attemptsMade: 1,
      data: { projectId: 'p1', name, payload: { to: 'ada' } },
    }) as TypedJob<typeof QueueName.ProjectJobs>;

  it('runs jobs/<name>.ts of the active deployment, with the attempt number and the job’s budget', async () => {
    const { calls, deployments, sandboxes } = runtime(deployment);
    const value = await new ProjectJobsConsumer(config, deployments, sandboxes, queue).run(run('welcome'));
    expect(value).toBe(42);
    expect(calls).toEqual([
      {
        projectId: 'p1',
        call: {
          op: 'job',
          key: 'dep-1:jobs/welcome.ts',
          code: 'export default 2',
          job: { id: 'job-9', name: 'welcome', payload: { to: 'ada' }, attempt: 2 },
          env: { GREETING: 'hi' },
        },
        timeoutMs: 9_000,
      },
    ]);
  });

  it('fails without retries a job the active deployment does not have', async () => {
    const { calls, deployments, sandboxes } = runtime(deployment);
    const consumer = new ProjectJobsConsumer(config, deployments, sandboxes, queue);
    await expect(consumer.run(run('digest'))).rejects.toEqual(
      new UnrecoverableError('no job digest in the active deployment'),
    );
    expect(calls).toEqual([]);
  });
});
