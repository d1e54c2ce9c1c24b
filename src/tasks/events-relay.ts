import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { EventBus, TaskEvent } from './events.js';

export interface RedisEventRelayOptions {
  pub: Redis;
  /** A client this relay puts in subscriber mode. */
  sub: Redis;
  prefix: string;
  bus: EventBus;
  /** The task as its result event carries it (the row is the truth; results can be large for a message). */
  resultJson: (taskId: string) => Promise<string | undefined>;
  log?: Logger;
}

interface Message {
  /** The publishing process: it already delivered the event to its own listeners. */
  o: string;
  t: string;
  e: TaskEvent;
}

/**
 * Wakes the SSE streams of every process: an event a worker published reaches an API process's bus. A lost
 * message only delays a stream (it restates from the event log and the row when it resumes); it never
 * corrupts one, because events carry their ids and streams drop ids they already sent.
 */
export class RedisEventRelay {
  private readonly origin = randomBytes(8).toString('hex');
  private readonly channel: string;
  readonly ready: Promise<unknown>;

  constructor(private readonly o: RedisEventRelayOptions) {
    this.channel = `${o.prefix}:events`;
    this.ready = o.sub.subscribe(this.channel);
    o.sub.on('message', (channel: string, text: string) => {
      if (channel === this.channel) void this.receive(text);
    });
  }

  forward(taskId: string, event: TaskEvent): void {
    const e = event.type === 'result' ? { ...event, data: '' } : event;
    const msg: Message = { o: this.origin, t: taskId, e };
    this.o.pub.publish(this.channel, JSON.stringify(msg)).catch((err) => this.o.log?.warn({ err, task: taskId }, 'task event not relayed; remote streams catch up when they resume'));
  }

  private async receive(text: string): Promise<void> {
    let msg: Message;
    try {
      msg = JSON.parse(text) as Message;
    } catch {
      return;
    }
    if (msg.o === this.origin) return;
    const event = msg.e;
    if (event.type === 'result') {
      const data = await this.o.resultJson(msg.t).catch(() => undefined);
      if (data === undefined) return;
      this.o.bus.deliver(msg.t, { ...event, data });
    } else this.o.bus.deliver(msg.t, event);
  }
}
