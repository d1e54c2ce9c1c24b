/** A watch as stored. Times are milliseconds since the epoch. */
export interface WatchRow {
  id: string;
  owner: string | null;
  source: string;
  action: string;
  /** Validated params as JSON text (without force or callback_url: a run adds those). */
  params: string;
  every_s: number;
  callback_url: string | null;
  paused: boolean;
  full_page: boolean;
  next_run_at: number;
  /** Failed runs in a row (0 after a success); the period doubles with each, up to the cap. */
  failures: number;
  last_run_at: number | null;
  last_task_id: string | null;
  /** The last failed run's error body as JSON text; kept after a later success (failures says whether it is current). */
  last_error: string | null;
  last_error_at: number | null;
  last_new_count: number | null;
  created_at: number;
}

export type WatchPatch = Partial<Pick<WatchRow, 'params' | 'every_s' | 'callback_url' | 'paused' | 'full_page' | 'next_run_at'>>;

export interface WatchRunRow {
  task_id: string;
  watch_id: string;
  /** Items the run found new; null when the run failed. */
  new_count: number | null;
  error: string | null;
  finished_at: number;
}

/** How a run ended, recorded in one step: seen ids, the run's history row and the watch's schedule. */
export interface WatchRunEnd {
  watchId: string;
  /** null: the run could not even be submitted. */
  taskId: string | null;
  at: number;
  /** Every id the run saw: new ones are recorded, known ones refreshed (ids still in the feed outlive the trim). */
  ids: string[];
  newCount: number | null;
  /** Error body JSON when the run failed. */
  error: string | null;
  failures: number;
  /** Applied only while taskId is still the watch's latest run. */
  nextRunAt: number;
}

/** Seen ids kept per watch (newest runs first); older ones are forgotten and would count as new again. */
export const SEEN_MAX = 20_000;

/**
 * Watches and what they have seen: SQLite (src/store/sqlite-watches.ts) and Postgres (src/store/pg/watches.ts),
 * one conformance suite (test/store/watch-conformance.ts).
 */
export interface WatchStore {
  /** Inserts unless the owner already has maxPerOwner watches (one step, so a burst cannot pass the cap); false then. */
  insert(w: WatchRow, maxPerOwner: number): Promise<boolean>;
  get(id: string): Promise<WatchRow | undefined>;
  /** undefined owner: every owner's; newest first (ids are time-ordered), after the before id. */
  list(q: { owner?: string | null; before?: string; limit: number }): Promise<WatchRow[]>;
  update(id: string, patch: WatchPatch): Promise<WatchRow | undefined>;
  /** Removes the watch with its seen ids and run history. */
  delete(id: string): Promise<boolean>;
  /** Up to limit unpaused watches due by now, soonest first (candidates: claim decides). */
  due(now: number, limit: number): Promise<WatchRow[]>;
  /**
   * Compare-and-set on next_run_at: of processes claiming one due period, exactly one gets true. The winner's
   * row gets the new next_run_at and last_run_at, and its last_task_id is cleared until started() names the run.
   */
  claim(id: string, seenNextRunAt: number, nextRunAt: number, now: number): Promise<boolean>;
  started(id: string, taskId: string): Promise<void>;
  /** Which of these ids the watch has seen. */
  seen(watchId: string, ids: string[]): Promise<Set<string>>;
  /** Records a run's end in one step (see WatchRunEnd), then trims the seen ids to the newest SEEN_MAX. */
  finish(end: WatchRunEnd): Promise<void>;
  /** Finished runs oldest first, after the (finished_at, task_id) given (paging for exports); newest: the latest, newest first. */
  runs(watchId: string, q: { after?: [number, string]; limit: number; newest?: boolean }): Promise<WatchRunRow[]>;
  /** Run history older than the cutoff goes (its tasks are purged after the same retention). */
  purgeRuns(before: number): Promise<number>;
}
