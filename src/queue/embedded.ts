import type { Store, TaskRow } from '../store/types.js';
import type { TaskQueue } from './types.js';

/** The embedded queue: the SQLite task table is the queue, ordered by creation time. */
export class EmbeddedQueue implements TaskQueue {
  constructor(private readonly store: Store) {}

  claim(busyAccounts: string[], now: number): TaskRow | undefined {
    return this.store.claimNext(busyAccounts, now);
  }

  recover(): number {
    return this.store.requeueOrphans();
  }
}
