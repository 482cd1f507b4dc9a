import { queuePrefix } from '@suite/queue';
import type { Redis } from 'ioredis';

/** An owner's pace of webhook deliveries: `perMinute` on average, `burst` at once, queued at most `maxDelayMs`. */
export interface PushPace {
  perMinute: number;
  burst: number;
  maxDelayMs: number;
}

/**
 * GCRA (the generic cell rate algorithm) on one Redis key per owner: the key holds the owner's
 * theoretical arrival time. A delivery within the burst goes now; the next ones are spaced by the
 * interval; one that would wait longer than maxDelayMs returns -1 and is not taken. The time is
 * Redis's own, so every gateway replica paces on one clock.
 */
const GCRA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local maxDelay = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local delay = tat - window - now
if delay < 0 then delay = 0 end
if delay > maxDelay then return -1 end
local nextTat = tat + interval
redis.call('SET', KEYS[1], tostring(nextTat), 'PX', math.ceil(nextTat - now) + 1000)
return delay
`;

/**
 * Paces one owner's webhook deliveries (GitHub and Stripe queue theirs the same way): a flood of
 * configs or task changes from one API key becomes a steady trickle that other owners' deliveries
 * are not stuck behind, and past a bounded backlog further deliveries are dropped (logged).
 */
export class PushDeliveryPacer {
  private readonly interval: number;
  private readonly window: number;

  constructor(
    private readonly redis: Redis,
    private readonly pace: PushPace,
  ) {
    this.interval = 60_000 / pace.perMinute;
    this.window = (pace.burst - 1) * this.interval;
  }

  /** How long this delivery should wait (ms), or null when the owner's backlog is full. */
  async reserve(owner: string): Promise<number | null> {
    const key = `${queuePrefix()}:push-pace:${owner}`;
    const delay = Number(
      await this.redis.eval(GCRA, 1, key, this.interval, this.window, this.pace.maxDelayMs),
    );
    return delay < 0 ? null : delay;
  }
}
