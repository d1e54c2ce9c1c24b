import type Database from 'better-sqlite3';
import { FILE_COLUMNS, fileRowOf, type DownloadFileRow, type DownloadFileStore, type EvictionCandidate } from './download-files.js';

/** The download_files table of the embedded store; created IF NOT EXISTS so merge order of migrations cannot matter. */
export const SQLITE_DOWNLOAD_FILES_MIGRATION = `CREATE TABLE IF NOT EXISTS download_files (
     id TEXT PRIMARY KEY, sha256 TEXT NOT NULL, blob_key TEXT NOT NULL, bytes INTEGER NOT NULL, mime TEXT NOT NULL, kind TEXT NOT NULL,
     w INTEGER, h INTEGER, duration_s REAL, source_quality TEXT NOT NULL, name TEXT NOT NULL, platform TEXT NOT NULL, native_id TEXT NOT NULL,
     source_key TEXT NOT NULL, created_at INTEGER NOT NULL, last_access INTEGER NOT NULL, pinned INTEGER NOT NULL DEFAULT 0, evicted_at INTEGER);
   CREATE INDEX IF NOT EXISTS download_files_by_sha ON download_files(sha256) WHERE evicted_at IS NULL;
   CREATE INDEX IF NOT EXISTS download_files_by_source ON download_files(platform, source_key) WHERE evicted_at IS NULL;`;

export class SqliteDownloadFiles implements DownloadFileStore {
  private readonly s;

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      put: p(`INSERT INTO download_files (${FILE_COLUMNS}) VALUES (@id, @sha256, @blob_key, @bytes, @mime, @kind, @w, @h, @duration_s, @source_quality, @name,
               @platform, @native_id, @source_key, @created_at, @last_access, @pinned, @evicted_at)`),
      get: p(`SELECT ${FILE_COLUMNS} FROM download_files WHERE id = ?`),
      bySource: p(`SELECT ${FILE_COLUMNS} FROM download_files WHERE platform = ? AND source_key = ? AND evicted_at IS NULL ORDER BY created_at DESC LIMIT 1`),
      bySha: p(`SELECT ${FILE_COLUMNS} FROM download_files WHERE sha256 = ? AND evicted_at IS NULL LIMIT 1`),
      touch: p(`UPDATE download_files SET last_access = MAX(last_access, ?) WHERE id = ?`),
      pin: p(`UPDATE download_files SET pinned = ? WHERE id = ? AND evicted_at IS NULL`),
      usage: p(`SELECT COALESCE(SUM(bytes), 0) AS n FROM (SELECT MAX(bytes) AS bytes FROM download_files WHERE evicted_at IS NULL GROUP BY sha256)`),
      evictable: p(`SELECT sha256, MAX(blob_key) AS blob_key, MAX(bytes) AS bytes, MAX(last_access) AS last_access FROM download_files
                    WHERE evicted_at IS NULL GROUP BY sha256 HAVING MAX(pinned) = 0 ORDER BY MAX(last_access), sha256 LIMIT ?`),
      evict: p(`UPDATE download_files SET evicted_at = ? WHERE sha256 = ? AND evicted_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM download_files k WHERE k.sha256 = ? AND k.evicted_at IS NULL AND k.pinned = 1)`),
    };
  }

  async put(row: DownloadFileRow): Promise<void> {
    this.s.put.run({ ...row, pinned: row.pinned ? 1 : 0 });
  }
  async get(id: string): Promise<DownloadFileRow | undefined> {
    const r = this.s.get.get(id) as Record<string, unknown> | undefined;
    return r && fileRowOf(r);
  }
  async bySource(platform: string, sourceKey: string): Promise<DownloadFileRow | undefined> {
    const r = this.s.bySource.get(platform, sourceKey) as Record<string, unknown> | undefined;
    return r && fileRowOf(r);
  }
  async bySha(sha256: string): Promise<DownloadFileRow | undefined> {
    const r = this.s.bySha.get(sha256) as Record<string, unknown> | undefined;
    return r && fileRowOf(r);
  }
  async touch(id: string, at: number): Promise<void> {
    this.s.touch.run(at, id);
  }
  async pin(id: string, pinned: boolean): Promise<boolean> {
    return this.s.pin.run(pinned ? 1 : 0, id).changes === 1;
  }
  async usage(): Promise<number> {
    return Number((this.s.usage.get() as { n: number }).n);
  }
  async evictable(limit: number): Promise<EvictionCandidate[]> {
    return (this.s.evictable.all(limit) as Array<Record<string, unknown>>).map((r) => ({
      sha256: String(r.sha256),
      blob_key: String(r.blob_key),
      bytes: Number(r.bytes),
      last_access: Number(r.last_access),
    }));
  }
  async evict(sha256: string, at: number): Promise<number> {
    return this.s.evict.run(at, sha256, sha256).changes;
  }
}
