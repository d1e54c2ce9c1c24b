import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import { RedisPacer } from '../crawl/pacer-redis.js';
import { BullQueue } from '../queue/bullmq.js';
import type { Store } from '../store/types.js';
import { RedisCancelSignal } from '../tasks/cancel-redis.js';
import type { EventBus } from '../tasks/events.js';
import { RedisEventRelay } from '../tasks/events-relay.js';
import { isFinished, taskJson } from '../tasks/serialize.js';
import { redisClient } from './connect.js';
import { RedisWatchdog } from './watchdog.js';
import { liveWorkers, WorkerHeartbeat, type HeartbeatOptions, type WorkerBeat } from './heartbeat.js';

export interface RedisParts {
  queue: BullQueue;
  pacer: RedisPacer;
  cancels: RedisCancelSignal;
  relay: RedisEventRelay;
  watchdog: RedisWatchdog;
  /** A heartbeat for this process (only processes that run crawls beat). */
  heartbeat(o: Omit<HeartbeatOptions, 'redis' | 'prefix' | 'log'>): WorkerHeartbeat;
  /** The fleet's live worker processes, by their heartbeats. */
  workers(): Promise<WorkerBeat[]>;
  /** Resolves once every subscription is in place. */
  ready: Promise<unknown>;
  close(): Promise<void>;
}

/** Everything a process of a fleet shares through Redis (CRAWLER_REDIS_URL), built from three clients. */
export function redisParts(o: { url: string; prefix: string; store: Store; bus: EventBus; accountSlots: number; log: Logger; lockMs?: number; stalledMs?: number; reconcileMs?: number; recheckMs?: number; watchdogMs?: number }): RedisParts {
  const redis = redisClient(o.url);
  const workerRedis = redisClient(o.url, { blocking: true });
  // Subscriber mode takes a connection for itself; the cancel signal, the relay and the queue share it.
  const sub = redisClient(o.url, { blocking: true });
  const clients: Redis[] = [redis, workerRedis, sub];
  for (const c of clients) c.on('error', (e) => o.log.warn({ err: e }, 'redis connection error'));
  const queue = new BullQueue({ redis, workerRedis, sub, prefix: o.prefix, store: o.store, accountSlots: o.accountSlots, lockMs: o.lockMs, stalledMs: o.stalledMs, reconcileMs: o.reconcileMs, log: o.log });
  const cancels = new RedisCancelSignal({
    pub: redis,
    sub,
    prefix: o.prefix,
    stillRunning: async (id) => (await o.store.getTask(id))?.status === 'running',
    recheckMs: o.recheckMs,
    log: o.log,
  });
  const relay = new RedisEventRelay({
    pub: redis,
    sub,
    prefix: o.prefix,
    bus: o.bus,
    resultJson: async (id) => {
      const row = await o.store.getTask(id);
      return row && isFinished(row.status) ? taskJson(row, true) : undefined;
    },
    log: o.log,
  });
  const watchdog = new RedisWatchdog({
    url: o.url,
    clients: { commands: redis, worker: workerRedis, subscriber: sub },
    afterMs: o.watchdogMs ?? 30_000,
    onRevived: () => queue.rebuild(),
    log: o.log,
  });
  return {
    queue,
    watchdog,
    pacer: new RedisPacer(redis, o.prefix),
    cancels,
    relay,
    heartbeat: (h) => new WorkerHeartbeat({ ...h, redis, prefix: o.prefix, log: o.log }),
    workers: () => liveWorkers(redis, o.prefix),
    ready: Promise.all([queue.ready, cancels.ready, relay.ready]),
    async close() {
      watchdog.close();
      cancels.close();
      await queue.close();
      for (const c of clients) c.disconnect();
    },
  };
}
