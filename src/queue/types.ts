import type { TaskRow } from '../store/types.js';

/**
 * Where runnable tasks come from. The embedded queue reads the SQLite task table in place; the fleet's
 * (BullMQ, src/queue/bullmq.ts) hands out the same rows from Redis. Workers never read the table directly.
 */
export interface TaskQueue {
  /** A task row was stored as queued (submitted or retried): a dispatching backend publishes it here; adding twice is a no-op. */
  add(row: TaskRow): Promise<void>;
  /** Claims the oldest queued task whose account is not busy, marking it running; undefined when none. */
  claim(busyAccounts: string[], now: number): Promise<TaskRow | undefined>;
  /** The run of a claimed task ended (finished, failed or cancelled): its account may take the next task. */
  done(row: TaskRow): Promise<void>;
  /** Tasks a dead process left running go back to the queue (reads are at-least-once). */
  recover(): Promise<number>;
}
