import type { TaskStatus } from '../domain/task.js';
import type { NewTask, TaskRow } from './types.js';

/** A batch of tasks submitted in one request (POST /v1/tasks/batch). */
export interface BatchRow {
  id: string;
  owner: string | null;
  created_at: number;
  /** Entries accepted, each a task. */
  size: number;
}

/** One accepted entry: its index in the request, its task, and the task's state now. */
export interface BatchEntry {
  idx: number;
  task_id: string;
  /** null once the task itself was purged by retention. */
  status: TaskStatus | null;
  /** The task's error JSON text when it failed. */
  error: string | null;
}

/** Persistence of batches beside the tasks they link (same database; both backends behave the same). */
export interface BatchStore {
  /**
   * The batch, its new tasks (as insertTask would store each) and all its links, in one transaction: a
   * batch is never seen half-made, and 500 tasks cost one commit. Returns the tasks' rows, in order.
   */
  batchCreate(batch: BatchRow, links: Array<{ idx: number; task_id: string }>, tasks?: NewTask[]): Promise<TaskRow[]>;
  batchGet(id: string): Promise<BatchRow | undefined>;
  /** Its entries in index order, each with its task's current status (one query, bounded by the batch size cap). */
  batchEntries(id: string): Promise<BatchEntry[]>;
  /** Removes batches made before `before` with their links (the task retention); returns how many. */
  batchPurge(before: number): Promise<number>;
}
