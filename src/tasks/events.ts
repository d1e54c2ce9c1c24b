export type TaskEventType = 'status' | 'progress' | 'result';

export interface TaskEvent {
  id: number;
  type: TaskEventType;
  /** JSON text of the payload. */
  data: string;
}

type Listener = (e: TaskEvent) => void;

interface Channel {
  seq: number;
  recent: TaskEvent[];
  listeners: Set<Listener>;
  expiry?: NodeJS.Timeout;
}

const RECENT_MAX = 200;
const KEEP_AFTER_END_MS = 5 * 60_000;

/**
 * In-process fan-out of task events with increasing ids, and a short memory of recent events so a
 * client reconnecting with Last-Event-ID misses nothing while the task runs.
 */
export class EventBus {
  private readonly channels = new Map<string, Channel>();

  private channel(taskId: string, storedSeq: number): Channel {
    let ch = this.channels.get(taskId);
    if (!ch) {
      ch = { seq: storedSeq, recent: [], listeners: new Set() };
      this.channels.set(taskId, ch);
    }
    if (ch.seq < storedSeq) ch.seq = storedSeq;
    return ch;
  }

  /** The id the next event of this task will get. */
  nextId(taskId: string, storedSeq: number): number {
    return this.channel(taskId, storedSeq).seq + 1;
  }

  emit(taskId: string, storedSeq: number, type: TaskEventType, data: string): TaskEvent {
    const ch = this.channel(taskId, storedSeq);
    const event = { id: ++ch.seq, type, data };
    ch.recent.push(event);
    if (ch.recent.length > RECENT_MAX) ch.recent.splice(0, ch.recent.length - RECENT_MAX);
    for (const l of [...ch.listeners]) {
      // One broken subscriber must not fail the emitter (the runner's result write, another stream).
      try {
        l(event);
      } catch {
        ch.listeners.delete(l);
      }
    }
    if (type === 'result') this.expireLater(taskId, ch);
    else if (ch.expiry) {
      clearTimeout(ch.expiry);
      ch.expiry = undefined;
    }
    return event;
  }

  since(taskId: string, lastId: number): TaskEvent[] {
    return (this.channels.get(taskId)?.recent ?? []).filter((e) => e.id > lastId);
  }

  subscribe(taskId: string, storedSeq: number, listener: Listener): () => void {
    const ch = this.channel(taskId, storedSeq);
    ch.listeners.add(listener);
    return () => {
      ch.listeners.delete(listener);
      if (ch.listeners.size) return;
      // A channel that never carried an event (a stream on a task that ended before this process
      // saw it) holds nothing the store does not: drop it now, or every such stream would leak one.
      if (!ch.recent.length) {
        if (this.channels.get(taskId) === ch) this.channels.delete(taskId);
      } else if (ch.recent.at(-1)?.type === 'result') this.expireLater(taskId, ch);
    };
  }

  /** Resolves true when the task's result event arrives, false after timeoutMs. */
  waitForResult(taskId: string, storedSeq: number, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      let off = () => {};
      const timer = setTimeout(() => {
        off();
        resolve(false);
      }, timeoutMs);
      off = this.subscribe(taskId, storedSeq, (e) => {
        if (e.type !== 'result') return;
        clearTimeout(timer);
        off();
        resolve(true);
      });
    });
  }

  private expireLater(taskId: string, ch: Channel): void {
    if (ch.expiry) clearTimeout(ch.expiry);
    ch.expiry = setTimeout(() => {
      if (!ch.listeners.size && this.channels.get(taskId) === ch) this.channels.delete(taskId);
    }, KEEP_AFTER_END_MS);
    ch.expiry.unref();
  }

  /** Channels held in memory (tests watch it for leaks). */
  get size(): number {
    return this.channels.size;
  }

  close(): void {
    for (const ch of this.channels.values()) if (ch.expiry) clearTimeout(ch.expiry);
    this.channels.clear();
  }
}
