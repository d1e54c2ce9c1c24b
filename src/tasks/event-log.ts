import type { TaskEvent } from './events.js';

/**
 * The event log port: a task's status and progress events, kept where every process reads them, so an
 * SSE stream resumes from Last-Event-ID on any API process and after a restart. Ids are the task's
 * event_seq numbers (assigned by the publisher, growing per task); the end of a task is its row, so
 * results are not logged and an ended task's history may go.
 */
export interface EventLog {
  /**
   * Stores an event of the task's attempt; readable by after() once the promise resolves. Calls for one
   * task come in id order without waiting for each other: a backend keeps them (and forget) in call order.
   */
  append(taskId: string, attempt: number, event: TaskEvent): Promise<void>;
  /** The attempt's events with ids above afterId, oldest first. */
  after(taskId: string, attempt: number, afterId: number): Promise<TaskEvent[]>;
  /** Drops an ended task's history. */
  forget(taskId: string): Promise<void>;
  /** Drops events stored before the cutoff (ms) whose tasks never said they ended (a crash). */
  purge(before: number): Promise<number>;
}
