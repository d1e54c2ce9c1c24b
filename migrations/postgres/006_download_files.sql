-- Files the download action stored: several rows (posts) may share one content-addressed blob (sha256).
CREATE TABLE IF NOT EXISTS download_files (
  id TEXT PRIMARY KEY, sha256 TEXT NOT NULL, blob_key TEXT NOT NULL, bytes BIGINT NOT NULL, mime TEXT NOT NULL, kind TEXT NOT NULL,
  w INTEGER, h INTEGER, duration_s DOUBLE PRECISION, source_quality TEXT NOT NULL, name TEXT NOT NULL, platform TEXT NOT NULL, native_id TEXT NOT NULL,
  source_key TEXT NOT NULL, created_at BIGINT NOT NULL, last_access BIGINT NOT NULL, pinned BOOLEAN NOT NULL DEFAULT FALSE, evicted_at BIGINT);
CREATE INDEX IF NOT EXISTS download_files_by_sha ON download_files(sha256) WHERE evicted_at IS NULL;
CREATE INDEX IF NOT EXISTS download_files_by_source ON download_files(platform, source_key) WHERE evicted_at IS NULL;
