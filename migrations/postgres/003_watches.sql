-- Watches: a saved source.action crawled every every_s seconds; each run is an ordinary task (tasks.watch_id),
-- queued behind interactive tasks, whose result keeps only the items the watch has not seen before.
ALTER TABLE tasks ADD COLUMN watch_id TEXT;
DROP INDEX tasks_queued;
CREATE INDEX tasks_queued ON tasks ((watch_id IS NOT NULL), created_at, ord) WHERE status = 'queued';

CREATE TABLE watches (
  id TEXT PRIMARY KEY,
  owner TEXT,
  source TEXT NOT NULL,
  action TEXT NOT NULL,
  params TEXT NOT NULL,
  every_s INTEGER NOT NULL,
  callback_url TEXT,
  paused BOOLEAN NOT NULL DEFAULT FALSE,
  full_page BOOLEAN NOT NULL DEFAULT FALSE,
  next_run_at BIGINT NOT NULL,
  failures INTEGER NOT NULL DEFAULT 0,
  last_run_at BIGINT,
  last_task_id TEXT,
  last_error TEXT,
  last_error_at BIGINT,
  last_new_count INTEGER,
  created_at BIGINT NOT NULL
);
CREATE INDEX watches_due ON watches (next_run_at) WHERE NOT paused;
CREATE INDEX watches_by_owner ON watches (owner, id);

-- The item ids each watch has seen (the newest few thousand per watch; older ones are trimmed).
CREATE TABLE watch_seen (
  watch_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  seen_at BIGINT NOT NULL,
  PRIMARY KEY (watch_id, item_id)
);
CREATE INDEX watch_seen_by_age ON watch_seen (watch_id, seen_at);

-- Finished runs: which task holds each run's new items.
CREATE TABLE watch_runs (
  task_id TEXT PRIMARY KEY,
  watch_id TEXT NOT NULL,
  new_count INTEGER,
  error TEXT,
  finished_at BIGINT NOT NULL
);
CREATE INDEX watch_runs_by_watch ON watch_runs (watch_id, finished_at);
