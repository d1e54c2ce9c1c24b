import type { Logger } from 'pino';
import type { ErrorBody } from '../domain/errors.js';
import type { TaskResult } from '../domain/results.js';
import type { TaskRow } from '../store/types.js';
import type { WatchStore } from '../store/watches.js';
import { idsOf, keepNew, periodS } from './new-items.js';

/** What the runner stores for a watch's run, and what to record once it is stored. */
export interface PreparedRun {
  result: TaskResult | undefined;
  /** Called after the task's result is stored: a crash in between makes the items new again, never lost. */
  stored(): Promise<void>;
}

/** The runner's hook for tasks that are watch runs: new items only, failures and the schedule. */
export class WatchRuns {
  constructor(
    private readonly watches: WatchStore,
    private readonly now: () => number,
    private readonly log: Logger,
  ) {}

  /** Before the run's result is stored: the result reduced to new items (a failed run's is left as is). */
  async prepare(row: TaskRow, result: TaskResult | undefined, failure: ErrorBody | undefined): Promise<PreparedRun> {
    const watchId = row.watch_id as string;
    const w = await this.watches.get(watchId);
    if (!w) return { result, stored: async () => {} };
    const error = failure ?? (result ? runError(result) : undefined);
    const at = this.now();
    const base = w.last_run_at ?? at;
    if (error) {
      const failures = w.failures + 1;
      return {
        result,
        stored: () => this.record({ watchId, taskId: row.id, at, ids: [], newCount: null, error: JSON.stringify(error), failures, nextRunAt: base + periodS(w.every_s, failures) * 1000 }),
      };
    }
    const r = result as TaskResult;
    const seen = await this.watches.seen(watchId, idsOf(row.action, r));
    const kept = keepNew(row.action, r, seen, watchId, w.full_page);
    return {
      result: kept.result,
      stored: () => this.record({ watchId, taskId: row.id, at, ids: idsOf(row.action, r), newCount: kept.newIds.length, error: null, failures: 0, nextRunAt: base + w.every_s * 1000 }),
    };
  }

  /** A run that ended outside the crawl (the runner's crash path). */
  async failed(row: TaskRow, error: ErrorBody): Promise<void> {
    await (await this.prepare(row, undefined, error)).stored();
  }

  private async record(end: Parameters<WatchStore['finish']>[0]): Promise<void> {
    try {
      await this.watches.finish(end);
    } catch (e) {
      // The task has its result; its items count as new again on the next run (the safe direction).
      this.log.error({ err: e, watch: end.watchId, task: end.taskId }, 'watch run not recorded');
    }
  }
}

/** A result that is an error for the watch: a blocked crawl or an envelope with ok false. */
export function runError(result: TaskResult): ErrorBody | undefined {
  const r = result as { ok?: boolean; source?: string; error?: ErrorBody };
  if (r.error) return r.error;
  if (r.source === 'blocked' || r.ok === false) return { code: 'blocked', message: 'the platform blocked the crawl', retryable: true };
  return undefined;
}
