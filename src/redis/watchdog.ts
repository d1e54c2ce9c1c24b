import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface WatchdogOptions {
  url: string;
  /** The clients this process lives on, by name (for the log). */
  clients: Record<string, Redis>;
  /** A client that has not answered a PING for this long while Redis answers a fresh connection is wedged. */
  afterMs: number;
  /** Called once a wedged client was reconnected (the queue rebuilds what it built on it). */
  onRevived: (name: string) => Promise<void> | void;
  log: Logger;
}

/**
 * ioredis reconnects on its own, but BullMQ workers have been seen to stay disconnected after a Redis
 * restart (bullmq#2466, #2964, #3185). The watchdog pings each client; one that stays silent while a
 * fresh connection to the same server answers is torn down and reconnected, and the queue rebuilt on it.
 * While Redis itself is down nothing is done: there is nothing to reconnect to yet.
 */
export class RedisWatchdog {
  private readonly lastOk = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private busy = false;
  revived = 0;

  constructor(private readonly o: WatchdogOptions) {
    const now = Date.now();
    for (const name of Object.keys(o.clients)) this.lastOk.set(name, now);
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(o.afterMs / 4)));
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = Date.now();
      const silent: string[] = [];
      await Promise.all(
        Object.entries(this.o.clients).map(async ([name, c]) => {
          if (await answers(c, this.o.afterMs / 4)) this.lastOk.set(name, now);
          else if (now - (this.lastOk.get(name) ?? now) >= this.o.afterMs) silent.push(name);
        }),
      );
      if (!silent.length || !(await serverAnswers(this.o.url))) return;
      for (const name of silent) {
        this.o.log.error({ client: name, silentMs: now - (this.lastOk.get(name) ?? now) }, 'redis watchdog: a client stayed disconnected while Redis answers; reconnecting it');
        const c = this.o.clients[name];
        // A client that gave up ('end') only comes back through connect(); a wedged live one through a fresh socket.
        if (c.status === 'end') await c.connect().catch((e) => this.o.log.warn({ err: e, client: name }, 'redis watchdog: reconnect failed'));
        else c.disconnect(true);
        this.lastOk.set(name, Date.now());
        this.revived++;
        await this.o.onRevived(name);
      }
    } catch (e) {
      this.o.log.warn({ err: e }, 'redis watchdog check failed');
    } finally {
      this.busy = false;
    }
  }
}

async function answers(c: Redis, timeoutMs: number): Promise<boolean> {
  if (c.status !== 'ready') return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      c.ping().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

async function serverAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000, enableOfflineQueue: false });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}
