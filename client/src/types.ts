/*
 * The service's wire types, written out by hand so the built package needs nothing outside client/.
 * test/unit/client-types.test.ts checks them against the server's zod schemas at compile time.
 */

export type ErrorCode =
  | 'invalid_request'
  | 'auth_required'
  | 'forbidden_scope'
  | 'unsupported'
  | 'not_found'
  | 'rate_limited'
  | 'blocked'
  | 'session_expired'
  | 'timeout'
  | 'duplicate'
  | 'upstream_error';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  retryable: boolean;
}

/** live: crawled now; cache: served from the result cache; empty: an honest no-results; blocked: captcha or risk control. */
export type ResultSource = 'live' | 'cache' | 'empty' | 'blocked';

export interface Media {
  kind: 'video' | 'image';
  /** Service-hosted (`/v1/media?u=…`); resolve it with `client.mediaUrl()`. */
  url: string;
  w?: number;
  h?: number;
  duration_s?: number;
}

export interface Preview {
  url: string;
  w?: number;
  h?: number;
  seconds?: number;
  status: 'hit' | 'rendered' | 'pending';
}

/** The platform's raw numbers; a count the platform did not report is absent. */
export interface Stats {
  likes?: number;
  comments?: number;
  shares?: number;
  views?: number;
}

export interface Item {
  /** `<provider>:<native_id>` */
  id: string;
  type: 'video' | 'image' | 'text';
  provider: string;
  title?: string;
  text?: string;
  author?: string;
  author_id?: string;
  author_handle?: string;
  author_url?: string;
  url?: string;
  thumb?: string;
  media: Media[];
  preview?: Preview;
  /** Creation time, unix seconds. */
  ts?: number;
  duration_s?: number;
  aspect?: { width: number; height: number };
  stats: Stats;
  provenance: 'live' | 'cache';
}

/** Shape A: search, posts, hot, recommended, detail. */
export interface Envelope {
  ok: boolean;
  source: ResultSource;
  count: number;
  items: Item[];
  next_cursor?: string;
  age_s?: number;
  ms: number;
  error?: ErrorBody;
  warnings?: string[];
  /** On a watch's run: items holds only the new items (every item with full_page, new ones in new_ids). */
  watch?: WatchRunInfo;
  /** Pool tasks only: the profile that ran the crawl. */
  profile?: string;
}

/** What a watch's run adds to its result. */
export interface WatchRunInfo {
  watch_id: string;
  new_count: number;
  seen_count: number;
  new_ids?: string[];
}

export interface Comment {
  cid: string;
  text: string;
  likes: number;
  reply_total: number;
  user_id: string;
  sec_uid?: string;
  handle: string;
  user_name: string;
  created_at: number;
  source: string;
  url?: string;
  /** Set on a threaded reply: the cid it answers. */
  parent_id?: string;
}

/** Shape B: comments. No top-level `ok`: branch on `source`. */
export interface CommentsResult {
  source: ResultSource;
  total: number;
  has_more: boolean;
  cursor?: string;
  ms: number;
  items: Comment[];
  error?: ErrorBody;
  warnings?: string[];
  age_s?: number;
  watch?: WatchRunInfo;
  /** Pool tasks only: the profile that ran the crawl. */
  profile?: string;
}

/** 0 or absent means "not reported", never a true zero. */
export interface Author {
  id: string;
  source: string;
  handle?: string;
  name?: string;
  bio?: string;
  avatar?: string;
  url?: string;
  followers?: number;
  following?: number;
  posts?: number;
  likes?: number;
  verified?: boolean;
}

/** Shape C: user. */
export interface CreatorResult {
  ok: boolean;
  source: ResultSource;
  items: never[];
  ms: number;
  data?: { platform: string; author: Author };
  error?: ErrorBody;
  warnings?: string[];
  age_s?: number;
  /** Pool tasks only: the profile that ran the crawl. */
  profile?: string;
}

export interface Trend {
  word: string;
  source: string;
  rank: number;
  hot_value?: number;
  url?: string;
}

/** Shape D: trending. */
export interface TrendResult {
  ok: boolean;
  source: ResultSource;
  items: never[];
  ms: number;
  data?: { platform: string; trends: Trend[] };
  error?: ErrorBody;
  warnings?: string[];
  age_s?: number;
  watch?: WatchRunInfo;
  /** Pool tasks only: the profile that ran the crawl. */
  profile?: string;
}

export type WriteState = 'planned' | 'published' | 'deleted' | 'session_expired' | 'blocked' | 'rejected' | 'duplicate';

/** Shape E: post.create, comment.create, delete. */
export interface WriteResult {
  ok: boolean;
  state: WriteState;
  url?: string;
  target?: string;
  source: string;
  ms: number;
  error?: ErrorBody;
  /** On state duplicate: the task that holds the same idempotency_key. */
  task_id?: string;
}

/** One stored file of a download: `url` is a signed service URL (no bearer needed; Range, HEAD). */
export interface DownloadFile {
  id: string;
  url: string;
  kind: 'video' | 'image';
  mime: string;
  bytes: number;
  sha256: string;
  w?: number;
  h?: number;
  duration_s?: number;
  /** Which stream this is, in the platform's terms (says whether it is watermark-free). */
  source_quality: string;
  /** The readable file name the service gives it. */
  name: string;
  pinned?: boolean;
}

/** download: shape A with the post's one item, plus its stored files. */
export interface DownloadResult extends Envelope {
  files: DownloadFile[];
}

export type TaskResult = Envelope | CommentsResult | CreatorResult | TrendResult | WriteResult | DownloadResult;

export type ItemsAction = 'search' | 'posts' | 'hot' | 'recommended' | 'detail';
export type WriteAction = 'post.create' | 'comment.create' | 'delete';
export type Action = ItemsAction | 'comments' | 'user' | 'trending' | 'download' | WriteAction;

/** The result shape is keyed on the action, never on the platform. */
export type ResultOf<A extends string> = A extends ItemsAction
  ? Envelope
  : A extends 'comments'
    ? CommentsResult
    : A extends 'user'
      ? CreatorResult
      : A extends 'trending'
        ? TrendResult
        : A extends WriteAction
          ? WriteResult
          : A extends 'download'
            ? DownloadResult
            : TaskResult;

/** What a paged action yields item by item: cards for shape A, comments for shape B. */
export type ItemOf<A extends string> = A extends ItemsAction ? Item : A extends 'comments' ? Comment : never;
export type PagedAction = ItemsAction | 'comments';

export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface Progress {
  items: number;
  pages: number;
  /** download: bytes fetched so far, files stored so far, and files the post has (of the media asked for). */
  bytes?: number;
  files?: number;
  files_total?: number;
}

/** Params every action shares; platform-specific ones (type, tab, board, instance…) pass through as they are. */
export interface Params {
  query?: string;
  limit?: number;
  cursor?: string;
  max_items?: number;
  profile?: string;
  media?: 'video' | 'image' | 'any';
  preview?: 'eager';
  min_duration_s?: number;
  max_duration_s?: number;
  orientation?: 'landscape' | 'portrait' | 'square';
  min_width?: number;
  min_height?: number;
  force?: boolean;
  max_age_s?: number;
  category?: string;
  text?: string;
  idempotency_key?: string;
  confirm?: boolean;
  dry_run?: boolean;
  [param: string]: unknown;
}

/** A task as the service returns it; `result` is present once it succeeded, `error` once it failed. */
export interface Task<R = unknown> {
  task_id: string;
  status: TaskStatus;
  source: string;
  action: string;
  params: Record<string, unknown>;
  created_at: string;
  started_at?: string;
  finished_at?: string;
  attempts: number;
  /** Pool tasks: the stored profile the service picked to run it. */
  profile?: string;
  progress?: Progress;
  result?: R;
  error?: ErrorBody;
}

/** A task whose `result` is typed by its action: narrow on `task.action`. */
export type AnyTask = { [A in Action]: Task<ResultOf<A>> & { action: A } }[Action];

/** POST /v1/tasks answered before the task finished (always `queued`: the state at acceptance). */
export interface Accepted {
  task_id: string;
  status: 'queued';
}

/** The first call of a write verb without `confirm`: nothing was queued. */
export interface NeedsConfirmation {
  status: 'needs_confirmation';
  plan: { action: string; summary: string; target?: string; params: Record<string, unknown> };
}

/** A write's plan can come back from a write verb, or from an action not known when compiling. */
export type PlanOf<A extends string> = string extends A ? NeedsConfirmation : A extends WriteAction ? NeedsConfirmation : never;

/** An entry of GET /v1/tasks: the task without its result. */
export interface TaskSummary extends Omit<Task, 'result'> {
  result_url?: string;
}

export interface TaskList {
  tasks: TaskSummary[];
  next_cursor?: string;
}

export interface CatalogParam {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean';
  required: boolean;
  default?: unknown;
  description: string;
  enum?: string[];
  min?: number;
  max?: number;
  /** A string param that also takes a number (since/until: unix seconds or an ISO 8601 date). */
  accepts_number?: boolean;
}

export interface CatalogEntry {
  /** `source.action` */
  name: string;
  group: string;
  summary: string;
  params: CatalogParam[];
  confirm?: boolean;
  write?: boolean;
}

export interface Capabilities {
  providers: Array<{ source: string; name?: string; region?: string; actions: string[]; auth: 'none' | 'cookie' | 'login'; write: boolean; categories: boolean }>;
}

export interface Category {
  id: string;
  name: string;
  actions: Array<'hot' | 'recommended'>;
}

export interface Health {
  ok: boolean;
  version: string;
  mode: 'embedded' | 'distributed';
  replay: boolean;
  uptime_s: number;
  [field: string]: unknown;
}

/** Events of GET /v1/tasks/{id}/stream, in id order; the stream ends after `result`. */
export type TaskEvent<R = unknown> =
  | { id: number; type: 'status'; task: Omit<Task<R>, 'result'> }
  | { id: number; type: 'progress'; progress: Progress }
  | { id: number; type: 'result'; task: Task<R> };

/** The actions a watch can repeat. */
export type WatchAction = 'posts' | 'search' | 'comments' | 'hot' | 'trending';

/** One finished run of a watch (GET /v1/watches/{id}: recent_runs). */
export interface WatchRun {
  task_id: string;
  new_count?: number;
  error?: ErrorBody;
  finished_at: string;
}

/** A watch: a feed crawl repeated every every_s seconds whose runs carry only new items. */
export interface Watch {
  watch_id: string;
  source: string;
  action: WatchAction;
  params: Record<string, unknown>;
  every_s: number;
  callback_url?: string;
  paused: boolean;
  full_page: boolean;
  created_at: string;
  next_run_at: string;
  last_run_at?: string;
  last_task_id?: string;
  last_new_count?: number;
  failures: number;
  last_error?: ErrorBody;
  last_error_at?: string;
  recent_runs?: WatchRun[];
}

export interface WatchList {
  watches: Watch[];
  next_cursor?: string;
}

/** POST /v1/watches. */
export interface WatchInput {
  source: string;
  action: WatchAction;
  params?: Record<string, unknown>;
  every_s: number;
  callback_url?: string;
  full_page?: boolean;
  paused?: boolean;
}

/** PATCH /v1/watches/{id}: only what changes (callback_url null removes it). */
export interface WatchPatch {
  every_s?: number;
  params?: Record<string, unknown>;
  paused?: boolean;
  callback_url?: string | null;
  full_page?: boolean;
}

/** One accepted entry of a batch, by its position in the request. */
export interface BatchTask {
  index: number;
  task_id: string;
  status: TaskStatus | null;
}

/** POST /v1/tasks/batch. */
export interface BatchAccepted {
  batch_id: string;
  accepted: number;
  refused: Array<{ index: number; error: ErrorBody }>;
  tasks: BatchTask[];
}

/** GET /v1/batches/{id}. */
export interface Batch {
  batch_id: string;
  created_at: string;
  total: number;
  counts: { queued: number; running: number; succeeded: number; failed: number; cancelled: number };
  task_ids: string[];
  tasks: BatchTask[];
}

/** POST /v1/batches/{id}/retry. */
export interface BatchRetry {
  batch_id: string;
  retried: Array<{ index: number; task_id: string }>;
  skipped: Array<{ index: number; task_id: string; reason: string }>;
}
