import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { CancelSignal } from './cancel.js';
import { LocalCancelSignal } from './cancel-local.js';

export interface RedisCancelOptions {
  /** Publishes cancels (a normal client). */
  pub: Redis;
  /** A client this signal puts in subscriber mode (it can serve nothing else). */
  sub: Redis;
  prefix: string;
  /** The backstop for a lost message: is this task still meant to run? (reads the task row). */
  stillRunning: (taskId: string) => Promise<boolean>;
  /** How often the runs of this process re-check their task rows (default 5 s). */
  recheckMs?: number;
  log?: Logger;
}

/**
 * The fleet's cancel signal: a cancel is published to every process, and the one running the task aborts it.
 * Pub/sub may drop a message (a reconnect), so each process also re-reads the rows of the tasks it runs.
 */
export class RedisCancelSignal implements CancelSignal {
  private readonly local = new LocalCancelSignal();
  private readonly watched = new Set<string>();
  private readonly channel: string;
  private readonly timer: NodeJS.Timeout;
  readonly ready: Promise<unknown>;

  constructor(private readonly o: RedisCancelOptions) {
    this.channel = `${o.prefix}:cancel`;
    this.ready = o.sub.subscribe(this.channel);
    o.sub.on('message', (channel: string, taskId: string) => {
      if (channel === this.channel) void this.local.cancel(taskId);
    });
    this.timer = setInterval(() => void this.recheck(), o.recheckMs ?? 5000);
    this.timer.unref();
  }

  watch(taskId: string): { signal: AbortSignal; release(): void } {
    const w = this.local.watch(taskId);
    this.watched.add(taskId);
    return {
      signal: w.signal,
      release: () => {
        w.release();
        this.watched.delete(taskId);
      },
    };
  }

  async cancel(taskId: string): Promise<void> {
    await this.local.cancel(taskId);
    await this.o.pub.publish(this.channel, taskId);
  }

  /** Runs whose row says they are no longer running (cancelled elsewhere, message lost) are aborted. */
  async recheck(): Promise<void> {
    for (const id of [...this.watched]) {
      try {
        if (!(await this.o.stillRunning(id))) await this.local.cancel(id);
      } catch (e) {
        this.o.log?.warn({ err: e, task: id }, 'could not re-check a running task');
      }
    }
  }

  close(): void {
    clearInterval(this.timer);
  }
}
