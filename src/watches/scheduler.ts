import type { Logger } from 'pino';
import { ApiError, errorBody, type ErrorBody } from '../domain/errors.js';
import type { Store } from '../store/types.js';
import type { WatchRow, WatchStore } from '../store/watches.js';
import { isFinished } from '../tasks/serialize.js';
import type { TaskService } from '../tasks/service.js';
import { periodS } from './new-items.js';

const FIRE_LANES = 8;

export interface WatchSchedulerDeps {
  watches: WatchStore;
  store: Store;
  tasks: TaskService;
  log: Logger;
  /** The clock every watch time is read from (tests move it by hand). */
  now: () => number;
  tickMs: number;
  /** Due watches fired per tick at most; the rest wait for the next tick. */
  batch?: number;
}

/**
 * Fires due watches: each process of a fleet runs this loop, and a compare-and-set on the watch's
 * next_run_at lets exactly one of them submit a period's run. A run is an ordinary read task of the watch's
 * owner, forced live and marked with the watch (queued behind interactive tasks). A watch that was due while
 * every process was down is due once: the claim moves next_run_at past now, whatever the number of missed periods.
 */
export class WatchScheduler {
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<number>;

  constructor(private readonly d: WatchSchedulerDeps) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick().catch((e) => this.d.log.warn({ err: e }, 'watch tick failed')), this.d.tickMs);
    this.timer.unref();
    void this.tick().catch((e) => this.d.log.warn({ err: e }, 'watch tick failed'));
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking?.catch(() => {});
  }

  /** Fires the watches due now; returns how many runs this process submitted. One tick at a time. */
  tick(): Promise<number> {
    this.ticking ??= this.fireDue().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async fireDue(): Promise<number> {
    const now = this.d.now();
    const due = await this.d.watches.due(now, this.d.batch ?? 100);
    let fired = 0;
    // A few at once: each fire is several round trips to a networked store.
    const lanes = Array.from({ length: Math.min(FIRE_LANES, due.length) }, async () => {
      for (let w = due.shift(); w; w = due.shift()) {
        try {
          if (await this.fire(w, now)) fired++;
        } catch (e) {
          this.d.log.warn({ err: e, watch: w.id }, 'watch run not submitted');
        }
      }
    });
    await Promise.all(lanes);
    return fired;
  }

  private async fire(w: WatchRow, now: number): Promise<boolean> {
    if (!(await this.d.watches.claim(w.id, w.next_run_at, now + periodS(w.every_s, w.failures) * 1000, now))) return false;
    // A run still queued or running (a long walk, a backlog) is not doubled: this period is skipped.
    if (w.last_task_id) {
      const last = await this.d.store.getTask(w.last_task_id);
      if (last && !isFinished(last.status)) {
        await this.d.watches.started(w.id, last.id);
        return false;
      }
    }
    const params = JSON.parse(w.params) as Record<string, unknown>;
    params.force = true;
    // Every action takes callback_url (webhooks): each run notifies the watch's receiver.
    if (w.callback_url) params.callback_url = w.callback_url;
    try {
      const owner = w.owner === null ? undefined : await this.d.store.tokenById(w.owner);
      if (w.owner !== null && (!owner || owner.revoked_at !== null)) throw new ApiError('auth_required', 'the token that owns this watch was revoked; runs stopped until it is deleted');
      const row = await this.d.tasks.submit({ owner: w.owner, scopes: ['read'], source: w.source, action: w.action, params, watchId: w.id });
      await this.d.watches.started(w.id, row.id);
      return true;
    } catch (e) {
      // The run could not even be queued (a profile deleted, a token revoked): a failed run like any other.
      const error: ErrorBody = e instanceof ApiError ? e.toBody().error : errorBody('upstream_error', (e as Error).message);
      const failures = w.failures + 1;
      await this.d.watches.finish({ watchId: w.id, taskId: null, at: now, ids: [], newCount: null, error: JSON.stringify(error), failures, nextRunAt: now + periodS(w.every_s, failures) * 1000 });
      return false;
    }
  }
}
