-- A profile's identity: the proxy its traffic always leaves by (sealed URL, credentials included) and its pool.
CREATE TABLE profile_identity (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  proxy TEXT,
  pool TEXT,
  PRIMARY KEY (platform, name)
);
CREATE INDEX profile_identity_by_pool ON profile_identity (platform, pool);
-- Crawl outcomes per profile over a rolling window (success and block rates, pool ranking), fleet-wide.
CREATE TABLE profile_outcomes (
  platform TEXT NOT NULL,
  name TEXT NOT NULL,
  at BIGINT NOT NULL,
  outcome TEXT NOT NULL
);
CREATE INDEX profile_outcomes_by_profile ON profile_outcomes (platform, name, at);
CREATE INDEX profile_outcomes_by_age ON profile_outcomes (at);
