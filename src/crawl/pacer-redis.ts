import type { Redis } from 'ioredis';
import type { Pacer } from './pacer.js';

// Redis TIME, not each node's clock, decides the slot; the reservation and the read of the last one are one
// atomic step, so two workers can never both take the same slot. The key lives a minute past its slot.
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local gap = tonumber(ARGV[1])
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local slot = math.max(now, last)
redis.call('SET', KEYS[1], slot + gap, 'PX', slot + gap - now + 60000)
return {slot, now}
`;

// The slot is taken only when it is due (Redis time), so the request leaves right after it is taken.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local gap = tonumber(ARGV[1])
local due = tonumber(redis.call('GET', KEYS[1]) or '0')
if now >= due then
  redis.call('SET', KEYS[1], now + gap, 'PX', gap + 60000)
  return {0, now}
end
return {due - now, now}
`;

/** The fleet's pacer: one slot counter per key in Redis, shared by every worker process. */
export class RedisPacer implements Pacer {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('crawlerPaceReserve', { numberOfKeys: 1, lua: RESERVE });
    redis.defineCommand('crawlerPaceAcquire', { numberOfKeys: 1, lua: ACQUIRE });
  }

  /** Takes the slot if due; `now` is Redis's time of the answer (the slot's time when taken). */
  async acquire(key: string, gapMs: number): Promise<{ wait: number; now: number }> {
    if (gapMs <= 0) return { wait: 0, now: Date.now() };
    const [wait, now] = await (this.redis as unknown as { crawlerPaceAcquire(k: string, gap: number): Promise<[number, number]> }).crawlerPaceAcquire(`${this.prefix}:pace:${key}`, gapMs);
    return { wait: Number(wait), now: Number(now) };
  }

  /** The slot taken and Redis's time when it was taken (ms), both on the server's clock. */
  async reserveSlot(key: string, gapMs: number): Promise<{ slot: number; now: number }> {
    const [slot, now] = (await (this.redis as unknown as { crawlerPaceReserve(k: string, gap: number): Promise<[number, number]> }).crawlerPaceReserve(
      `${this.prefix}:pace:${key}`,
      gapMs,
    )) as [number, number];
    return { slot: Number(slot), now: Number(now) };
  }

  async reserve(key: string, gapMs: number): Promise<number> {
    if (gapMs <= 0) return 0;
    const { slot, now } = await this.reserveSlot(key, gapMs);
    return slot - now;
  }
}
