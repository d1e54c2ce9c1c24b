import type pg from 'pg';
import { FILE_COLUMNS, fileRowOf, type DownloadFileRow, type DownloadFileStore, type EvictionCandidate } from '../download-files.js';

type Query = (sql: string, params?: unknown[]) => Promise<pg.QueryResult<Record<string, unknown>>>;

/** download_files on Postgres (migrations/postgres/006_download_files.sql); the same answers as SQLite. */
export class PgDownloadFiles implements DownloadFileStore {
  constructor(private readonly q: Query) {}

  async put(r: DownloadFileRow): Promise<void> {
    await this.q(`INSERT INTO download_files (${FILE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`, [
      r.id, r.sha256, r.blob_key, r.bytes, r.mime, r.kind, r.w, r.h, r.duration_s, r.source_quality, r.name, r.platform, r.native_id, r.source_key,
      r.created_at, r.last_access, r.pinned, r.evicted_at,
    ]);
  }
  async get(id: string): Promise<DownloadFileRow | undefined> {
    const r = (await this.q(`SELECT ${FILE_COLUMNS} FROM download_files WHERE id = $1`, [id])).rows[0];
    return r && fileRowOf(r);
  }
  async bySource(platform: string, sourceKey: string): Promise<DownloadFileRow | undefined> {
    const r = (await this.q(`SELECT ${FILE_COLUMNS} FROM download_files WHERE platform = $1 AND source_key = $2 AND evicted_at IS NULL ORDER BY created_at DESC LIMIT 1`, [platform, sourceKey])).rows[0];
    return r && fileRowOf(r);
  }
  async bySha(sha256: string): Promise<DownloadFileRow | undefined> {
    const r = (await this.q(`SELECT ${FILE_COLUMNS} FROM download_files WHERE sha256 = $1 AND evicted_at IS NULL LIMIT 1`, [sha256])).rows[0];
    return r && fileRowOf(r);
  }
  async touch(id: string, at: number): Promise<void> {
    await this.q('UPDATE download_files SET last_access = GREATEST(last_access, $1) WHERE id = $2', [at, id]);
  }
  async pin(id: string, pinned: boolean): Promise<boolean> {
    return ((await this.q('UPDATE download_files SET pinned = $1 WHERE id = $2 AND evicted_at IS NULL', [pinned, id])).rowCount ?? 0) === 1;
  }
  async usage(): Promise<number> {
    const r = await this.q('SELECT COALESCE(SUM(bytes), 0) AS n FROM (SELECT MAX(bytes) AS bytes FROM download_files WHERE evicted_at IS NULL GROUP BY sha256) b');
    return Number(r.rows[0].n);
  }
  async evictable(limit: number): Promise<EvictionCandidate[]> {
    const r = await this.q(
      `SELECT sha256, MAX(blob_key) AS blob_key, MAX(bytes) AS bytes, MAX(last_access) AS last_access FROM download_files
       WHERE evicted_at IS NULL GROUP BY sha256 HAVING NOT BOOL_OR(pinned) ORDER BY MAX(last_access), sha256 LIMIT $1`,
      [limit],
    );
    return r.rows.map((x) => ({ sha256: String(x.sha256), blob_key: String(x.blob_key), bytes: Number(x.bytes), last_access: Number(x.last_access) }));
  }
  async evict(sha256: string, at: number): Promise<number> {
    const r = await this.q(
      `UPDATE download_files SET evicted_at = $1 WHERE sha256 = $2 AND evicted_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM download_files k WHERE k.sha256 = $2 AND k.evicted_at IS NULL AND k.pinned)`,
      [at, sha256],
    );
    return r.rowCount ?? 0;
  }
}
