import { z } from 'zod';
import { ErrorBodySchema } from './errors.js';

/** The actions a watch can repeat: feeds whose items have stable ids. */
export const WATCH_ACTIONS = ['posts', 'search', 'comments', 'hot', 'trending'] as const;
export const EVERY_MIN_S = 900;
export const EVERY_MAX_S = 7 * 86_400;
/** Failed runs in a row double the period, up to this (never below every_s itself). */
export const BACKOFF_CAP_S = 8 * 3600;
export const CALLBACK_URL_MAX = 2048;

const iso = z.string().describe('ISO 8601 time');

/** What a watch's run adds to its result (shapes A, B and D keep their fields). */
export const WatchRunInfoSchema = z
  .object({
    watch_id: z.string(),
    new_count: z.int().nonnegative().describe('items this watch had not seen before'),
    seen_count: z.int().nonnegative().describe('items of the page the watch had seen in an earlier run (left out unless full_page)'),
    new_ids: z.array(z.string()).optional().describe('full_page watches: the ids (Item.id, Comment.cid, Trend.word) of the new items; the page keeps every item'),
  })
  .describe("present on a watch run's result: items holds only the new items (every item with full_page, new ones named in new_ids)");

export const WatchRunSchema = z.object({
  task_id: z.string(),
  new_count: z.int().nonnegative().optional().describe('absent when the run failed'),
  error: ErrorBodySchema.optional(),
  finished_at: iso,
});

export const WatchSchema = z.object({
  watch_id: z.string(),
  source: z.string(),
  action: z.enum(WATCH_ACTIONS),
  params: z.record(z.string(), z.unknown()).describe('the params each run is submitted with (plus force: true)'),
  every_s: z.int().min(EVERY_MIN_S).max(EVERY_MAX_S),
  callback_url: z.string().optional(),
  paused: z.boolean(),
  full_page: z.boolean(),
  created_at: iso,
  next_run_at: iso.describe('when the next run is due (the service looks every CRAWLER_WATCH_TICK_MS)'),
  last_run_at: iso.optional(),
  last_task_id: z.string().optional().describe('the latest run: GET /v1/tasks/{id} (its result holds only new items)'),
  last_new_count: z.int().nonnegative().optional(),
  failures: z.int().nonnegative().describe('failed runs in a row; each doubles the period (capped at 8 h), a success resets it'),
  last_error: ErrorBodySchema.optional().describe("the latest failed run's error (kept after a success: failures says whether it is current)"),
  last_error_at: iso.optional(),
  recent_runs: z.array(WatchRunSchema).optional().describe('GET /v1/watches/{id} only: the latest finished runs, newest first'),
});

export const WatchListSchema = z.object({
  watches: z.array(WatchSchema),
  next_cursor: z.string().optional(),
});

export const WatchDeletedSchema = z.object({ watch_id: z.string(), deleted: z.literal(true) });

const everyS = z.int().min(EVERY_MIN_S).max(EVERY_MAX_S).describe(`seconds between runs, ${EVERY_MIN_S} (15 min) to ${EVERY_MAX_S} (7 days)`);
const callbackUrl = z
  .string()
  .max(CALLBACK_URL_MAX)
  .describe('absolute https URL; copied into each run task as params.callback_url where the catalog entry accepts that param');

export const WatchCreateBodySchema = z.object({
  source: z.string().describe('a platform (see GET /v1/task-sources)'),
  action: z.enum(WATCH_ACTIONS),
  params: z.record(z.string(), z.unknown()).optional().describe("the catalog entry's params, as for a task (no cursor, force or max_age_s)"),
  every_s: everyS,
  callback_url: callbackUrl.optional(),
  full_page: z.boolean().optional().describe('keep the whole page in each run result and name the new items in watch.new_ids (default false: only new items)'),
  paused: z.boolean().optional(),
});

export const WatchPatchBodySchema = z.object({
  every_s: everyS.optional(),
  params: z.record(z.string(), z.unknown()).optional().describe('replaces the params (validated as on create)'),
  paused: z.boolean().optional(),
  callback_url: callbackUrl.nullable().optional().describe('null removes it'),
  full_page: z.boolean().optional(),
});
