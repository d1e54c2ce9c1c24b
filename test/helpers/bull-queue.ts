import type { Store } from '../../src/store/types.js';
import { BullQueue, type BullQueueOptions } from '../../src/queue/bullmq.js';
import { redisClient } from '../../src/redis/connect.js';
import { TEST_REDIS_URL } from './redis.js';

/** A BullMQ queue with its own three Redis clients, as one process of a fleet would have. */
export async function bullQueue(store: Store, prefix: string, opts: Partial<BullQueueOptions> = {}): Promise<BullQueue & { shutdown(): Promise<void> }> {
  const redis = redisClient(TEST_REDIS_URL);
  const workerRedis = redisClient(TEST_REDIS_URL, { blocking: true });
  const sub = redisClient(TEST_REDIS_URL, { blocking: true });
  const q = new BullQueue({ redis, workerRedis, sub, prefix, store, accountSlots: 1, ...opts }) as BullQueue & { shutdown(): Promise<void> };
  await q.ready;
  q.shutdown = async () => {
    await q.close();
    for (const c of [redis, workerRedis, sub]) c.disconnect();
  };
  return q;
}
