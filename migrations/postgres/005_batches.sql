-- Batches (POST /v1/tasks/batch): the batch and the link to each accepted entry's task, by index.
CREATE TABLE batches (
  id TEXT PRIMARY KEY,
  owner TEXT,
  created_at BIGINT NOT NULL,
  size INTEGER NOT NULL
);
-- The primary key is the index a batch's counts read: one range scan, then the tasks by primary key.
CREATE TABLE batch_tasks (
  batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  task_id TEXT NOT NULL,
  PRIMARY KEY (batch_id, idx)
);
