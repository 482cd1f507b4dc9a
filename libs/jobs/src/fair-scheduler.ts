import type { Redis } from 'ioredis';
import { redisReady } from '@suite/queue';

/** The per-owner limits the scheduler enforces (RUNNER_* settings). */
export interface FairShareLimits {
  /** Jobs of one owner waiting for a worker (in the fair queue or handed out, not started). */
  maxQueuedPerOwner: number;
  /** Jobs of one owner handed to workers and not ended (waiting in BullMQ or running). */
  maxRunningPerOwner: number;
  /** Jobs handed to BullMQ and not yet taken by a worker, all owners together. */
  dispatchAhead: number;
}

/** A job the scheduler handed out: the caller adds it to BullMQ. */
export interface DispatchedJob {
  id: string;
  trace: string;
}

// Every script gets the same fixed keys; per-owner keys (a pending list and a running set per
// owner) are built from ARGV[1], the key base, because which owner is served is decided inside
// the script. That needs a single Redis (not Cluster), as the rest of the runner does.
const FIXED_KEYS = [
  'owners', // sorted set: owners with pending jobs, by the virtual start time of their next job
  'vtime', // the virtual time: the start tag of the last job dispatched
  'finish', // hash owner → finish tag of its last dispatched job (where it re-joins)
  'job', // hash job id → owner, while the job is pending or handed out
  'trace', // hash job id → trace context JSON, while the job is pending
  'dispatched', // sorted set job id → dispatch time (ms), handed to BullMQ, not started
  'inflight', // sorted set job id → dispatch time (ms), handed to BullMQ, not ended
] as const;

const ENQUEUE = `
local base, id, owner = ARGV[1], ARGV[2], ARGV[3]
if redis.call('HEXISTS', KEYS[4], id) == 1 then return 0 end
local pending = base .. 'pending:' .. owner
if ARGV[6] ~= '1' then
  local waiting = redis.call('LLEN', pending)
  for _, other in ipairs(redis.call('ZRANGE', KEYS[6], 0, -1)) do
    if redis.call('HGET', KEYS[4], other) == owner then waiting = waiting + 1 end
  end
  if waiting >= tonumber(ARGV[5]) then return -1 end
end
redis.call('RPUSH', pending, id)
redis.call('HSET', KEYS[4], id, owner)
redis.call('HSET', KEYS[5], id, ARGV[4])
if not redis.call('ZSCORE', KEYS[1], owner) then
  -- Re-joining: at the current virtual time (idle time earns no credit), or later if its last
  -- job's finish tag is still ahead of it.
  local now = tonumber(redis.call('GET', KEYS[2]) or '0')
  local finish = tonumber(redis.call('HGET', KEYS[3], owner) or '0')
  redis.call('ZADD', KEYS[1], math.max(now, finish), owner)
end
return 1
`;

// Start-time fair queueing with a cost of 1 per job: the owner whose next job has the smallest
// start tag goes first; after it, that owner's next job starts one unit later. Owners at their
// running limit are skipped and brought up to the virtual time, so waiting at the limit earns no
// burst later.
const PUMP = `
local base, maxRunning, ahead, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local out = {}
local vtime = tonumber(redis.call('GET', KEYS[2]) or '0')
while redis.call('ZCARD', KEYS[6]) < ahead do
  local picked, start
  local owners = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  for i = 1, #owners, 2 do
    local owner, score = owners[i], tonumber(owners[i + 1])
    if redis.call('SCARD', base .. 'running:' .. owner) < maxRunning then
      picked, start = owner, score
      break
    elseif score < vtime then
      redis.call('ZADD', KEYS[1], vtime, owner)
    end
  end
  if not picked then break end
  local pending = base .. 'pending:' .. picked
  local id = redis.call('LPOP', pending)
  if id then
    if start > vtime then vtime = start end
    local finish = start + 1
    redis.call('HSET', KEYS[3], picked, finish)
    if redis.call('LLEN', pending) > 0 then
      redis.call('ZADD', KEYS[1], finish, picked)
    else
      redis.call('ZREM', KEYS[1], picked)
    end
    redis.call('SADD', base .. 'running:' .. picked, id)
    redis.call('ZADD', KEYS[6], now, id)
    redis.call('ZADD', KEYS[7], now, id)
    out[#out + 1] = id
    out[#out + 1] = redis.call('HGET', KEYS[5], id) or '{}'
    redis.call('HDEL', KEYS[5], id)
  else
    redis.call('ZREM', KEYS[1], picked)
  end
end
redis.call('SET', KEYS[2], vtime)
return out
`;

const STARTED = `
return redis.call('ZREM', KEYS[6], ARGV[2])
`;

// A job pending again (queued anew after it ended) is not released by a late event of its
// previous run.
const RELEASE = `
local base, id = ARGV[1], ARGV[2]
if redis.call('HEXISTS', KEYS[5], id) == 1 then return 0 end
redis.call('ZREM', KEYS[6], id)
redis.call('ZREM', KEYS[7], id)
local owner = redis.call('HGET', KEYS[4], id)
if not owner then return 0 end
redis.call('HDEL', KEYS[4], id)
return redis.call('SREM', base .. 'running:' .. owner, id)
`;

const REMOVE_PENDING = `
local base, id = ARGV[1], ARGV[2]
if redis.call('HEXISTS', KEYS[5], id) == 0 then return 0 end
local owner = redis.call('HGET', KEYS[4], id)
local pending = base .. 'pending:' .. owner
redis.call('LREM', pending, 1, id)
redis.call('HDEL', KEYS[5], id)
redis.call('HDEL', KEYS[4], id)
if redis.call('LLEN', pending) == 0 then
  local start = redis.call('ZSCORE', KEYS[1], owner)
  redis.call('ZREM', KEYS[1], owner)
  -- Its place is kept: cancelling its last waiting job and queueing a new one gains nothing.
  if start and tonumber(start) > tonumber(redis.call('HGET', KEYS[3], owner) or '0') then
    redis.call('HSET', KEYS[3], owner, start)
  end
end
return 1
`;

const SCRIPTS = {
  fairEnqueue: ENQUEUE,
  fairPump: PUMP,
  fairStarted: STARTED,
  fairRelease: RELEASE,
  fairRemovePending: REMOVE_PENDING,
} as const;
type ScriptName = keyof typeof SCRIPTS;

/**
 * The fair-share structure in Redis in front of the browser-job queue: a pending list per owner,
 * the owners with pending jobs ordered by virtual start time, and what each owner has handed out.
 * Every change is one Lua script, so API processes and workers can enqueue and dispatch at once.
 */
export class FairScheduler {
  private readonly keys: string[];

  constructor(
    private readonly redis: Redis,
    /** Key base, e.g. `suite:fair:browser-jobs:` (REDIS_PREFIX first, as BullMQ's keys). */
    private readonly base: string,
    private readonly limits: FairShareLimits,
  ) {
    this.keys = FIXED_KEYS.map((key) => `${base}${key}`);
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      redis.defineCommand(name, { numberOfKeys: FIXED_KEYS.length, lua });
    }
  }

  private async run(name: ScriptName, ...args: (string | number)[]): Promise<unknown> {
    await redisReady(this.redis);
    const command = (
      this.redis as unknown as Record<ScriptName, (...a: (string | number)[]) => Promise<unknown>>
    )[name];
    return command.call(this.redis, ...this.keys, this.base, ...args);
  }

  /**
   * Appends the job to its owner's pending list: `full` when the owner already has
   * maxQueuedPerOwner jobs waiting (unless `admitOverLimit`), `already` when the job is in the
   * structure (pending or handed out).
   */
  async enqueue(
    id: string,
    owner: string,
    trace: string,
    admitOverLimit = false,
  ): Promise<'queued' | 'already' | 'full'> {
    const result = Number(
      await this.run('fairEnqueue', id, owner, trace, this.limits.maxQueuedPerOwner, admitOverLimit ? 1 : 0),
    );
    return result === 1 ? 'queued' : result === 0 ? 'already' : 'full';
  }

  /** Takes the next jobs to hand out, fairly, while fewer than dispatchAhead wait in BullMQ. */
  async pump(now = Date.now()): Promise<DispatchedJob[]> {
    const flat = (await this.run(
      'fairPump',
      this.limits.maxRunningPerOwner,
      this.limits.dispatchAhead,
      now,
    )) as string[];
    const jobs: DispatchedJob[] = [];
    for (let i = 0; i < flat.length; i += 2) jobs.push({ id: flat[i]!, trace: flat[i + 1]! });
    return jobs;
  }

  /** A worker took the job: it no longer counts as handed out ahead (it still runs for its owner). */
  async started(id: string): Promise<void> {
    await this.run('fairStarted', id);
  }

  /** The job left BullMQ for good: its owner's running slot is free. */
  async release(id: string): Promise<boolean> {
    return Number(await this.run('fairRelease', id)) === 1;
  }

  /** Drops a pending job (cancelled); false when it was not pending. */
  async removePending(id: string): Promise<boolean> {
    return Number(await this.run('fairRemovePending', id)) === 1;
  }

  async isPending(id: string): Promise<boolean> {
    await redisReady(this.redis);
    return (await this.redis.hexists(this.keys[4]!, id)) === 1;
  }

  /** Jobs pending in the fair queue, all owners. */
  pendingCount(): Promise<number> {
    return FairScheduler.pendingCount(this.redis, this.base);
  }

  /** As pendingCount, without defining the scripts on the connection (a read-only caller). */
  static async pendingCount(redis: Redis, base: string): Promise<number> {
    await redisReady(redis);
    return redis.hlen(`${base}trace`);
  }

  /** The owner's jobs: pending, and handed out and not ended. */
  async ownerCounts(owner: string): Promise<{ pending: number; running: number }> {
    await redisReady(this.redis);
    const [pending, running] = await Promise.all([
      this.redis.llen(`${this.base}pending:${owner}`),
      this.redis.scard(`${this.base}running:${owner}`),
    ]);
    return { pending, running };
  }

  /** Jobs handed out before `before` (ms): those still waiting for a worker, and those not ended. */
  async handedOutBefore(before: number): Promise<{ dispatched: string[]; inflight: string[] }> {
    await redisReady(this.redis);
    const [dispatched, inflight] = await Promise.all([
      this.redis.zrangebyscore(this.keys[5]!, '-inf', before),
      this.redis.zrangebyscore(this.keys[6]!, '-inf', before),
    ]);
    return { dispatched, inflight };
  }
}
