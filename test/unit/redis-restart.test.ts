import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BullQueue } from '../../src/queue/bullmq.js';
import { redisClient } from '../../src/redis/connect.js';
import { openDatabase, SqliteStore } from '../../src/store/sqlite.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/** A private redis-server without persistence: a restart loses everything, the worst case. */
function startRedis(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const p = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    p.on('error', (e) => reject(new Error(`this test starts its own redis-server (${e.message}): install it with apt-get install -y redis-server`)));
    p.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('Ready to accept connections')) resolve(p);
    });
  });
}

const stop = (p: ChildProcess) => new Promise<void>((resolve) => (p.exitCode !== null ? resolve() : (p.once('exit', () => resolve()), p.kill('SIGKILL'))));

let server: ChildProcess | undefined;
afterAll(async () => {
  if (server) await stop(server);
});

describe('BullMQ queue across a Redis restart that lost every key', () => {
  it('reconnects by itself and the reconciler restores the queued tasks and the account limit', async () => {
    const port = await freePort();
    server = await startRedis(port);
    const url = `redis://127.0.0.1:${port}`;
    const store = new SqliteStore(openDatabase(join(mkdtempSync(join(tmpdir(), 'redis-restart-')), 'db.sqlite')));
    const clients = [redisClient(url), redisClient(url, { blocking: true }), redisClient(url, { blocking: true })];
    for (const c of clients) c.on('error', () => {});
    const q = new BullQueue({ redis: clients[0], workerRedis: clients[1], sub: clients[2], prefix: 'rr', store, accountSlots: 1, reconcileMs: 60_000, pollMs: 60_000 });
    let wakes = 0;
    q.onWake = () => wakes++;
    try {
      await q.ready;
      const rows = [];
      for (let i = 0; i < 3; i++) rows.push(await store.insertTask({ id: `t_rr${i}`, source: 'x', action: 'search', params: '{}', account: 'x:one', owner: null, createdAt: 1000 + i }));
      for (const r of rows) await q.add(r);
      await stop(server);
      server = await startRedis(port);
      // No manual step: the clients reconnect, and the next reconcile (here called at once) re-adds the queued rows.
      let restored = 0;
      for (let i = 0; i < 100 && !restored; i++) {
        restored = await q.reconcile().catch(() => 0);
        if (!restored) await new Promise((r) => setTimeout(r, 100));
      }
      expect(restored).toBe(3);
      const first = await q.claim([], Date.now());
      expect(first?.id).toBe('t_rr0');
      // The per-account limit came back with the queue: the second task waits for the first.
      expect(await q.claim([], Date.now())).toBeUndefined();
      await store.finishTask(first!.id, first!.attempts, 'succeeded', '{}', null, Date.now(), first!.event_seq + 2);
      await q.done(first!);
      expect((await q.claim([], Date.now()))?.id).toBe('t_rr1');
      // Wake-ups flow again after the restart (the subscriber re-subscribed by itself).
      const before = wakes;
      await clients[0].publish('rr:wake', 'x:one');
      for (let i = 0; i < 50 && wakes === before; i++) await new Promise((r) => setTimeout(r, 20));
      expect(wakes).toBeGreaterThan(before);
    } finally {
      await q.close();
      for (const c of clients) c.disconnect();
      await store.close();
    }
  });
});
