-- Webhook outbox: a task that ends (succeeded, failed, cancelled) with params.callback_url owes one delivery per
-- (task, attempt, event). A trigger writes it in the statement that ends the task, whichever process runs that
-- statement, so a finish and its notification commit together and a second finisher cannot double it.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  event TEXT NOT NULL,
  url TEXT NOT NULL,
  owner TEXT,
  status TEXT NOT NULL,
  source TEXT NOT NULL,
  action TEXT NOT NULL,
  finished_at BIGINT NOT NULL,
  result_source TEXT,
  count INTEGER,
  error TEXT,
  watch_id TEXT,
  state TEXT NOT NULL DEFAULT 'pending',
  created_at BIGINT NOT NULL,
  next_at BIGINT NOT NULL,
  first_attempt_at BIGINT,
  tries INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until BIGINT,
  done_at BIGINT,
  UNIQUE (task_id, attempt, event)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (created_at);

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL,
  n INTEGER NOT NULL,
  at BIGINT NOT NULL,
  http_status INTEGER,
  error TEXT,
  ms INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, n)
);

CREATE FUNCTION webhook_owed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p jsonb;
  doc jsonb;
  at BIGINT := COALESCE(NEW.finished_at, NEW.created_at);
BEGIN
  -- A text that is not JSON must not undo the finish: it only leaves the summary out.
  BEGIN
    p := NEW.params::jsonb;
    IF NEW.result IS NOT NULL THEN
      doc := NEW.result::jsonb;
    ELSIF NEW.result_id IS NOT NULL THEN
      -- A cached result's text is its head, an age, and its tail.
      SELECT (head || '0' || tail)::jsonb INTO doc FROM results WHERE id = NEW.result_id;
    END IF;
  EXCEPTION WHEN others THEN
    doc := NULL;
  END;
  IF p IS NULL OR jsonb_typeof(p -> 'callback_url') IS DISTINCT FROM 'string' THEN
    RETURN NULL;
  END IF;
  INSERT INTO webhook_deliveries (id, task_id, attempt, event, url, owner, status, source, action, finished_at,
    result_source, count, error, watch_id, created_at, next_at)
  VALUES ('wh_' || NEW.id || '_' || NEW.attempts, NEW.id, NEW.attempts, 'task.finished', p ->> 'callback_url', NEW.owner,
    NEW.status, NEW.source, NEW.action, at, doc ->> 'source',
    COALESCE((doc ->> 'count')::integer, CASE WHEN jsonb_typeof(doc -> 'items') = 'array' THEN jsonb_array_length(doc -> 'items') END),
    COALESCE(NEW.error, (doc -> 'error')::text), NEW.watch_id, at, at)
  ON CONFLICT (task_id, attempt, event) DO NOTHING;
  RETURN NULL;
END;
$$;

CREATE TRIGGER webhook_owed_on_end AFTER UPDATE OF status ON tasks FOR EACH ROW
  WHEN (NEW.status IN ('succeeded', 'failed', 'cancelled') AND OLD.status NOT IN ('succeeded', 'failed', 'cancelled')
        AND strpos(NEW.params, '"callback_url"') > 0)
  EXECUTE FUNCTION webhook_owed();
CREATE TRIGGER webhook_owed_on_born_ended AFTER INSERT ON tasks FOR EACH ROW
  WHEN (NEW.status IN ('succeeded', 'failed', 'cancelled') AND strpos(NEW.params, '"callback_url"') > 0)
  EXECUTE FUNCTION webhook_owed();
