import type { Store, TaskRow } from '../store/types.js';
import type { TaskQueue } from './types.js';

/** The embedded queue: the SQLite task table is the queue, ordered by creation time. */
export class EmbeddedQueue implements TaskQueue {
  constructor(private readonly store: Store) {}

  /** The stored row is already the queue entry. */
  async add(_row: TaskRow): Promise<void> {}

  /** The account's slot is the runner's own bookkeeping in one process. */
  async done(_row: TaskRow): Promise<void> {}

  claim(busyAccounts: string[], now: number): Promise<TaskRow | undefined> {
    return this.store.claimNext(busyAccounts, now);
  }

  recover(): Promise<number> {
    return this.store.requeueOrphans();
  }
}
