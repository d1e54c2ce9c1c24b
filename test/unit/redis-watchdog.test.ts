import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisParts, type RedisParts } from '../../src/redis/fleet.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';
import { EventBus } from '../../src/tasks/events.js';
import { dropPrefix, requireRedis, TEST_REDIS_URL, testPrefix } from '../helpers/redis.js';

const prefix = testPrefix('wd');
let parts: RedisParts | undefined;
beforeAll(requireRedis);
afterAll(async () => {
  await parts?.close();
  await dropPrefix(prefix);
});

const until = async (f: () => Promise<boolean> | boolean, ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await f()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};

describe('Redis watchdog', () => {
  it('reconnects a client that stays disconnected while Redis answers, and the queue hands out work again', async () => {
    const store = new SqliteStore(openDatabase(join(mkdtempSync(join(tmpdir(), 'wd-')), 'db.sqlite')));
    parts = redisParts({ url: TEST_REDIS_URL, prefix, store, bus: new EventBus(), accountSlots: 1, log: pino({ level: 'silent' }), watchdogMs: 600, reconcileMs: 60_000 });
    await parts.ready;
    const row = await store.insertTask({ id: 't_wd1', source: 'x', action: 'search', params: '{}', account: 'x:one', owner: null, createdAt: 1 });
    // The wedge the watchdog exists for: the client the workers claim through gives up and never comes back.
    const worker = (parts.queue as unknown as { o: { workerRedis: { disconnect(reconnect?: boolean): void; status: string } } }).o.workerRedis;
    worker.disconnect(false);
    expect(await until(() => worker.status === 'end', 2_000)).toBe(true);
    await parts.queue.add(row).catch(() => {});
    expect(await parts.queue.claim([], Date.now()).then(() => 'claimed', () => 'refused')).toBe('refused');
    expect(await until(() => parts!.watchdog.revived > 0, 5_000)).toBe(true);
    expect(await until(() => worker.status === 'ready', 5_000)).toBe(true);
    let claimed: string | undefined;
    expect(
      await until(async () => {
        claimed = (await parts!.queue.claim([], Date.now()).catch(() => undefined))?.id;
        return claimed !== undefined;
      }, 5_000),
    ).toBe(true);
    expect(claimed).toBe('t_wd1');
  });

  it('does nothing while Redis itself is unreachable (there is nothing to reconnect to)', async () => {
    const store = new SqliteStore(openDatabase(join(mkdtempSync(join(tmpdir(), 'wd-')), 'db.sqlite')));
    const down = redisParts({ url: 'redis://127.0.0.1:1', prefix, store, bus: new EventBus(), accountSlots: 1, log: pino({ level: 'silent' }), watchdogMs: 500 });
    await new Promise((r) => setTimeout(r, 1500));
    expect(down.watchdog.revived).toBe(0);
    await down.close();
  });
});
