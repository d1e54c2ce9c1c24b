-- A profile's identity: the proxy its traffic always leaves by (sealed URL, credentials included) and its pool.
CREATE TABLE profile_identity (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  proxy TEXT,
  pool TEXT,
  PRIMARY KEY (platform, name)
);
CREATE INDEX profile_identity_by_pool ON profile_identity (platform, pool);
-- Crawl outcomes per profile and minute (success and block rates over a rolling hour, pool ranking), fleet-wide.
CREATE TABLE profile_outcomes (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  minute BIGINT NOT NULL,
  ok INTEGER NOT NULL DEFAULT 0,
  blocked INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (platform, name, minute)
);
CREATE INDEX profile_outcomes_by_age ON profile_outcomes (minute);
-- Pool picks count each candidate's queued tasks (running ones have tasks_running).
CREATE INDEX tasks_queued_by_account ON tasks (account) WHERE status = 'queued';
