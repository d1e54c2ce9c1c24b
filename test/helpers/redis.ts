import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis the fleet tests use: CRAWLER_TEST_REDIS_URL, or a local server on the default port. */
export const TEST_REDIS_URL = process.env.CRAWLER_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Fails (never skips) when no Redis answers, saying how to start one. Each test file gets its own key
 * prefix, and cleans its keys with dropPrefix.
 */
export async function requireRedis(): Promise<void> {
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    throw new Error(
      `these tests need Redis at ${TEST_REDIS_URL} (${(e as Error).message}): start one with \`redis-server --daemonize yes\` ` +
        '(Debian: apt-get install -y redis-server), or point CRAWLER_TEST_REDIS_URL at one',
    );
  } finally {
    probe.disconnect();
  }
}

export const testPrefix = (name: string) => `t${name}${randomBytes(5).toString('hex')}`;

export async function dropPrefix(prefix: string): Promise<void> {
  const r = new Redis(TEST_REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}
