/** One stored download: a post's media file as the caller sees it (several rows may share one blob). */
export interface DownloadFileRow {
  id: string;
  sha256: string;
  /** Where the bytes live in the blob store (content-addressed: one blob per sha256). */
  blob_key: string;
  bytes: number;
  mime: string;
  kind: 'video' | 'image';
  w: number | null;
  h: number | null;
  duration_s: number | null;
  source_quality: string;
  /** The readable file name (author, post id, index, extension) for Content-Disposition. */
  name: string;
  platform: string;
  native_id: string;
  /** The post's media position and the stream picked for it: a retry finds what it already stored. */
  source_key: string;
  created_at: number;
  last_access: number;
  pinned: boolean;
  evicted_at: number | null;
}

/** A blob the quota may evict: its bytes and the newest access of any file row using it. */
export interface EvictionCandidate {
  sha256: string;
  blob_key: string;
  bytes: number;
  last_access: number;
}

/**
 * The download action's files (sub-port of the Store; SQLite and Postgres behave the same). Quota
 * accounting is per blob: identical content stored for two posts counts once.
 */
export interface DownloadFileStore {
  put(row: DownloadFileRow): Promise<void>;
  get(id: string): Promise<DownloadFileRow | undefined>;
  /** The newest live (not evicted) file stored for this source key. */
  bySource(platform: string, sourceKey: string): Promise<DownloadFileRow | undefined>;
  /** A live row holding this content, if any (its blob is stored). */
  bySha(sha256: string): Promise<DownloadFileRow | undefined>;
  touch(id: string, at: number): Promise<void>;
  /** False when there is no live file with this id. */
  pin(id: string, pinned: boolean): Promise<boolean>;
  /** Bytes of the distinct live blobs. */
  usage(): Promise<number>;
  /** Live blobs no pinned row uses, least recently used first. */
  evictable(limit: number): Promise<EvictionCandidate[]>;
  /** Marks every live row of this blob evicted (unless one was pinned meanwhile); the number of rows marked. */
  evict(sha256: string, at: number): Promise<number>;
}

/** Column list shared by both backends. */
export const FILE_COLUMNS = 'id, sha256, blob_key, bytes, mime, kind, w, h, duration_s, source_quality, name, platform, native_id, source_key, created_at, last_access, pinned, evicted_at';

/** Rows from either driver (SQLite integers for booleans, Postgres BIGINT as text) to the port's types. */
export function fileRowOf(r: Record<string, unknown>): DownloadFileRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: String(r.id),
    sha256: String(r.sha256),
    blob_key: String(r.blob_key),
    bytes: Number(r.bytes),
    mime: String(r.mime),
    kind: r.kind === 'image' ? 'image' : 'video',
    w: num(r.w),
    h: num(r.h),
    duration_s: num(r.duration_s),
    source_quality: String(r.source_quality),
    name: String(r.name),
    platform: String(r.platform),
    native_id: String(r.native_id),
    source_key: String(r.source_key),
    created_at: Number(r.created_at),
    last_access: Number(r.last_access),
    pinned: r.pinned === true || Number(r.pinned) === 1,
    evicted_at: num(r.evicted_at),
  };
}
