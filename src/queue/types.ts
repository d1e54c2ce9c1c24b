import type { TaskRow } from '../store/types.js';

/**
 * Where runnable tasks come from. The embedded queue reads the SQLite task table in place; a
 * distributed one (BullMQ) will hand out the same rows from Redis. Workers never read the table directly.
 */
export interface TaskQueue {
  /** A task row was stored as queued (submitted or retried): a dispatching backend publishes it here. */
  add(row: TaskRow): Promise<void>;
  /** Claims the oldest queued task whose account is not busy, marking it running; undefined when none. */
  claim(busyAccounts: string[], now: number): Promise<TaskRow | undefined>;
  /** Tasks a dead process left running go back to the queue (reads are at-least-once). */
  recover(): Promise<number>;
}
