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
  /** Between the task's first event and its result: the channel keeps counting ids for it. */
  live: boolean;
  listeners: Set<Listener>;
}

/**
 * In-process fan-out of task events with increasing ids. Memory follows work in flight: a channel
 * lives while its task runs or someone listens, and holds no history (the event log does). A
 * finished task is restated from the store (status and result), so nothing is kept after the end.
 */
export class EventBus {
  private readonly channels = new Map<string, Channel>();

  private channel(taskId: string, storedSeq: number): Channel {
    let ch = this.channels.get(taskId);
    if (!ch) {
      ch = { seq: storedSeq, live: false, listeners: new Set() };
      this.channels.set(taskId, ch);
    }
    if (ch.seq < storedSeq) ch.seq = storedSeq;
    return ch;
  }

  /** The id the next event of this task will get. */
  nextId(taskId: string, storedSeq: number): number {
    const ch = this.channels.get(taskId);
    return Math.max(ch?.seq ?? 0, storedSeq) + 1;
  }

  emit(taskId: string, storedSeq: number, type: TaskEventType, data: string): TaskEvent {
    const ch = this.channel(taskId, storedSeq);
    const event = { id: ++ch.seq, type, data };
    if (type !== 'result') ch.live = true;
    for (const l of [...ch.listeners]) {
      // One broken subscriber must not fail the emitter (the runner's result write, another stream).
      try {
        l(event);
      } catch {
        ch.listeners.delete(l);
      }
    }
    if (type === 'result') {
      // The store holds the end; a late subscriber is answered from it.
      ch.live = false;
      if (!ch.listeners.size) this.drop(taskId, ch);
    }
    return event;
  }

  /**
   * An event another process published (its id already assigned there): handed to this process's
   * listeners of the task, if any; a task nobody here follows keeps no channel.
   */
  deliver(taskId: string, event: TaskEvent): void {
    const ch = this.channels.get(taskId);
    if (!ch) return;
    if (ch.seq < event.id) ch.seq = event.id;
    for (const l of [...ch.listeners]) {
      try {
        l(event);
      } catch {
        ch.listeners.delete(l);
      }
    }
    if (event.type === 'result' && !ch.live && !ch.listeners.size) this.drop(taskId, ch);
  }

  subscribe(taskId: string, storedSeq: number, listener: Listener): () => void {
    const ch = this.channel(taskId, storedSeq);
    ch.listeners.add(listener);
    return () => {
      ch.listeners.delete(listener);
      if (!ch.listeners.size && !ch.live) this.drop(taskId, ch);
    };
  }

  /** Resolves true when the task's result event arrives, false after timeoutMs or once signal aborts. */
  waitForResult(taskId: string, storedSeq: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      let off = () => {};
      const end = (got: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abandon);
        off();
        resolve(got);
      };
      const abandon = () => end(false);
      const timer = setTimeout(abandon, timeoutMs);
      off = this.subscribe(taskId, storedSeq, (e) => {
        if (e.type === 'result') end(true);
      });
      signal?.addEventListener('abort', abandon, { once: true });
    });
  }

  private drop(taskId: string, ch: Channel): void {
    if (this.channels.get(taskId) === ch) this.channels.delete(taskId);
  }

  /** Channels held in memory (tests watch it for leaks). */
  get size(): number {
    return this.channels.size;
  }

  close(): void {
    this.channels.clear();
  }
}
