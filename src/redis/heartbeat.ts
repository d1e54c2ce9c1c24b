import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** What a process that runs crawls says about itself, every heartbeat. */
export interface WorkerBeat {
  id: string;
  host: string;
  pid: number;
  role: string;
  /** Crawls it runs at once (CRAWLER_WORKERS). */
  slots: number;
  /** Crawls it runs now. */
  running: number;
  started_at: number;
}

export interface HeartbeatOptions {
  redis: Redis;
  prefix: string;
  role: string;
  slots: number;
  running: () => number;
  /** How often the key is written (default 5 s). */
  periodMs?: number;
  /** How long a key outlives its last beat (default three periods): a dead process drops out after it. */
  ttlMs?: number;
  log?: Logger;
}

// The index and the per-process keys are read in one step: an index entry whose key expired (its process
// died) is dropped there, so the index never grows with processes long gone.
const LIVE = `
local ids = redis.call('SMEMBERS', KEYS[1])
local out = {}
for _, id in ipairs(ids) do
  local v = redis.call('GET', KEYS[1] .. ':' .. id)
  if v then table.insert(out, v) else redis.call('SREM', KEYS[1], id) end
end
return out
`;

const indexKey = (prefix: string) => `${prefix}:workers`;

/**
 * A worker process's presence in the fleet: a key with a time to live, renewed every period, and an
 * entry in an index of them. Health counts the keys still alive; a process that stops beating (killed)
 * drops out when its key expires, one that stops cleanly removes it at once.
 */
export class WorkerHeartbeat {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly startedAt = Date.now();
  private readonly periodMs: number;
  private readonly ttlMs: number;
  private timer?: NodeJS.Timeout;

  constructor(private readonly o: HeartbeatOptions) {
    this.periodMs = o.periodMs ?? 5000;
    this.ttlMs = o.ttlMs ?? this.periodMs * 3;
  }

  /** Beats now (resolved once the key is written), then every period. */
  async start(): Promise<void> {
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat().catch((e) => this.o.log?.warn({ err: e }, 'worker heartbeat not written')), this.periodMs);
    this.timer.unref();
    await this.beat();
  }

  /** Stops beating and leaves the key to expire, as a process that died would (tests). */
  pause(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops beating and leaves the fleet at once. */
  async stop(): Promise<void> {
    this.pause();
    await this.o.redis.multi().del(`${indexKey(this.o.prefix)}:${this.id}`).srem(indexKey(this.o.prefix), this.id).exec();
  }

  private async beat(): Promise<void> {
    const beat: WorkerBeat = { id: this.id, host: hostname(), pid: process.pid, role: this.o.role, slots: this.o.slots, running: this.o.running(), started_at: this.startedAt };
    await this.o.redis.multi().set(`${indexKey(this.o.prefix)}:${this.id}`, JSON.stringify(beat), 'PX', this.ttlMs).sadd(indexKey(this.o.prefix), this.id).exec();
  }
}

/** The processes of the fleet whose heartbeat has not expired. */
export async function liveWorkers(redis: Redis, prefix: string): Promise<WorkerBeat[]> {
  const raw = (await redis.eval(LIVE, 1, indexKey(prefix))) as string[];
  const out: WorkerBeat[] = [];
  for (const text of raw) {
    try {
      out.push(JSON.parse(text) as WorkerBeat);
    } catch {
      // A key some other writer left under the prefix is not a worker.
    }
  }
  return out;
}
