-- The store's tables, the same as the SQLite store's after its migrations. Times are milliseconds since the epoch.
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  source TEXT NOT NULL,
  action TEXT NOT NULL,
  params TEXT NOT NULL,
  account TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT,
  attempts INTEGER NOT NULL DEFAULT 1,
  progress TEXT,
  result TEXT,
  error TEXT,
  owner TEXT,
  event_seq INTEGER NOT NULL DEFAULT 0,
  result_id BIGINT,
  result_age INTEGER,
  -- Insertion order breaks ties between tasks created in the same millisecond (SQLite uses its rowid).
  ord BIGINT GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX tasks_queued ON tasks (created_at, ord) WHERE status = 'queued';
CREATE INDEX tasks_running ON tasks (account) WHERE status = 'running';
CREATE INDEX tasks_by_result ON tasks (result_id) WHERE result_id IS NOT NULL;
CREATE INDEX tasks_by_owner ON tasks (owner, id);

CREATE TABLE results (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  head TEXT NOT NULL,
  tail TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE cache (
  key TEXT PRIMARY KEY,
  result_id BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX cache_by_expiry ON cache (expires_at);
CREATE INDEX cache_by_result ON cache (result_id);

CREATE TABLE tokens (
  id TEXT PRIMARY KEY,
  name TEXT,
  hash BYTEA NOT NULL UNIQUE,
  scopes TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  revoked_at BIGINT
);

-- One row: bumped in the statement that revokes a token, so every process's token cache notices on its next check.
CREATE TABLE token_version (
  one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
  version BIGINT NOT NULL
);
INSERT INTO token_version (one, version) VALUES (TRUE, 0);

CREATE TABLE profiles (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  cookies TEXT,
  credentials TEXT,
  health TEXT NOT NULL DEFAULT 'unknown',
  checked_at BIGINT,
  used_at BIGINT,
  cooling_until BIGINT,
  strikes INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (platform, name)
);

CREATE TABLE guest_jars (
  account TEXT PRIMARY KEY,
  user_agent TEXT NOT NULL,
  data TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);

CREATE TABLE media_refs (
  url_hash TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  native_id TEXT NOT NULL,
  slot TEXT NOT NULL,
  profile TEXT NOT NULL,
  url TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX media_refs_by_item ON media_refs (platform, native_id);

CREATE TABLE media_swaps (
  url_hash TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

CREATE TABLE previews (
  platform TEXT NOT NULL,
  native_id TEXT NOT NULL,
  state TEXT NOT NULL,
  reason TEXT,
  w INTEGER,
  h INTEGER,
  seconds DOUBLE PRECISION,
  file TEXT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (platform, native_id)
);

CREATE TABLE idempotency (
  owner TEXT NOT NULL,
  key TEXT NOT NULL,
  task_id TEXT NOT NULL,
  params_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (owner, key)
);
CREATE INDEX idempotency_by_task ON idempotency (task_id);
CREATE INDEX idempotency_by_age ON idempotency (created_at);

-- SSE history of running tasks (status, progress), so Last-Event-ID resumes on any process.
CREATE TABLE task_events (
  task_id TEXT NOT NULL,
  id INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (task_id, id)
);
CREATE INDEX task_events_by_age ON task_events (at);
