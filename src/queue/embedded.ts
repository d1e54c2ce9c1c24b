import type { Store, TaskRow } from '../store/types.js';
import type { TaskQueue } from './types.js';

/** The embedded queue: the SQLite task table is the queue, ordered by creation time. */
export class EmbeddedQueue implements TaskQueue {
  constructor(private readonly store: Store) {}

  claim(busyAccounts: string[], now: number): TaskRow | undefined {
    // Another worker may win the row between the read and the update; then try the next one.
    for (let tries = 0; tries < 100; tries++) {
      const next = this.store.nextQueued(busyAccounts);
      if (!next) return undefined;
      const row = this.store.markRunning(next.id, now);
      if (row) return row;
    }
    return undefined;
  }

  recover(): number {
    return this.store.requeueOrphans();
  }
}
