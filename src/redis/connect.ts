import { Redis } from 'ioredis';

/**
 * A client for CRAWLER_REDIS_URL. BullMQ's blocking commands need maxRetriesPerRequest null; callers that
 * must fail fast (pacer, publish) get errors from the first reconnect attempt instead of hanging forever.
 */
export function redisClient(url: string, opts: { blocking?: boolean } = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: opts.blocking ? null : 3,
    enableReadyCheck: true,
    lazyConnect: false,
  });
}

/** Redis channel and key names live under one prefix so fleets (and test files) sharing a server stay apart. */
export function keyOf(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts].join(':');
}
