import type { Logger } from 'pino';
import type { CatalogParam, Category } from '../domain/catalog.js';
import type { ItemType, Stats } from '../domain/item.js';
import type { Author, Comment, Trend } from '../domain/results.js';
import type { ActionName } from '../domain/task.js';
import type { HttpClient } from '../crawl/http.js';
import type { DownloadAction } from '../download/types.js';

/** What an adapter returns for one post; the runner turns it into an Item (ids, author_url, media URLs). */
export interface ItemDraft {
  native_id: string;
  type: ItemType;
  title?: string;
  text?: string;
  author?: string;
  author_id?: string;
  author_handle?: string;
  /** Canonical URL of the post. */
  url?: string;
  /** Origin cover URL; the runner rewrites it to the service-hosted form. */
  thumb?: string;
  /** Origin media URLs; the runner rewrites them. */
  media?: Array<{ kind: 'video' | 'image'; url: string; w?: number; h?: number; duration_s?: number }>;
  ts?: number;
  duration_s?: number;
  aspect?: { width: number; height: number };
  stats: Stats;
}

export interface Page<T> {
  items: T[];
  /** Native cursor for the next page; absent on the last page. */
  next_cursor?: string;
  /** Total count the platform reports (comments). */
  total?: number;
  /**
   * Comments only: per top-level comment cid, where its replies continue after the ones this page inlines
   * (the native cursor for CommentsAction.replies), or null when this page already holds all of them.
   * A cid not named here is walked from its first reply page (replies the page inlined are not repeated).
   */
  reply_cursors?: Record<string, string | null>;
}

/** Per-platform memory shared by the tasks of one process: signing keys, guest tokens, resolved ids. */
export interface Memo {
  get<T>(key: string): T | undefined;
  /** ttlMs absent: kept until the process ends. */
  set<T>(key: string, value: T, ttlMs?: number): void;
  delete(key: string): void;
}

/**
 * Guest state an adapter mints for anonymous use (visitor cookies, device ids), persisted per account
 * and bound to one User-Agent for life: requests of this context go out with that agent.
 */
export interface GuestJar extends Memo {
  readonly userAgent: string;
}

/**
 * Runs the platform site's own code in this profile's browser page to compute a request signature
 * (for signatures with no faithful reimplementation). The page is loaded once and reused.
 */
export interface PageSigning {
  sign<T = unknown>(req: { pageUrl: string; fn?: string; expression?: string; args?: unknown[]; timeoutMs?: number; initScript?: string }): Promise<T>;
}

export interface CrawlContext {
  platform: string;
  profile: string;
  http: HttpClient;
  /**
   * The profile's stored login: cookies as a Cookie header string, and other credentials
   * (API tokens, app passwords, client id/secret) by name.
   */
  session: { cookies?: string; credentials?: Record<string, string> };
  memo: Memo;
  /** Persisted guest state of this account; its User-Agent is the context's default one. */
  guest: GuestJar;
  /** In-page signing in this profile's browser context (absent where no browser is configured). */
  signer?: PageSigning;
  /** CRAWLER_SIGN_MODE: per platform or endpoint, how signed requests are signed (default auto). */
  signModes?: ReadonlyMap<string, 'native' | 'browser' | 'auto'>;
  /** This platform's operation data (ids, doc_ids, feature flags), overrides applied; {} for platforms without any. */
  ops: Record<string, unknown>;
  signal: AbortSignal;
  log: Logger;
  /** Every request is answered from recordings (CRAWLER_REPLAY): nothing this crawl asks reaches a network. */
  replay: boolean;
  /** A non-fatal note for the caller (lands in the result's warnings). */
  warn(message: string): void;
}

/** Params after validation: common ones (limit, cursor, …) plus the action's own. */
export type Params = Record<string, unknown> & { query?: string; category?: string };

export interface ItemsAction {
  shape: 'items';
  summary: string;
  params?: CatalogParam[];
  /** posts only: supports params.max_items walking. */
  walk?: boolean;
  /**
   * The feed is newest first (pinned posts aside), so a walk may stop once a whole page is older than
   * params.since. A function when it depends on the params (a tab sorted otherwise).
   */
  timeOrdered?: boolean | ((params: Params) => boolean);
  /** hot/recommended: accepts params.category from the adapter's categories. */
  categories?: boolean;
  /** Fetch one page; cursor is the native cursor from the previous page, absent for the first. */
  page(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<ItemDraft>>;
}

export interface CommentsAction {
  shape: 'comments';
  summary: string;
  params?: CatalogParam[];
  page(ctx: CrawlContext, params: Params, cursor?: string): Promise<Page<Comment>>;
  /**
   * One thread's replies (replies=all): page `cursor` (absent: the first) of the replies under the
   * top-level comment `parentCid`. A reply without parent_id is taken to answer parentCid.
   */
  replies?(ctx: CrawlContext, params: Params, parentCid: string, cursor?: string): Promise<Page<Comment>>;
  /** The pages themselves hold the whole tree (replies after what they answer, parent_id set): replies=all walks them as they are. */
  wholeTree?: boolean;
}

export interface CreatorAction {
  shape: 'creator';
  summary: string;
  params?: CatalogParam[];
  /** null: the platform honestly said there is nothing (source empty). */
  run(ctx: CrawlContext, params: Params): Promise<Author | null>;
}

export interface TrendsAction {
  shape: 'trends';
  summary: string;
  params?: CatalogParam[];
  run(ctx: CrawlContext, params: Params): Promise<Trend[]>;
}

export interface WritePlan {
  /** One line saying what would be done, e.g. "comment on t3_abc as u/me". */
  summary: string;
  /** What the write acts on (post id/URL), when there is one. */
  target?: string;
}

export interface WriteOutcome {
  state: 'published' | 'deleted' | 'rejected' | 'session_expired' | 'blocked';
  url?: string;
  target?: string;
  /** Why the platform refused, for rejected. */
  message?: string;
}

/** post.create, comment.create, delete: planned without side effects, then run once, never retried. */
export interface WriteAction {
  shape: 'write';
  summary: string;
  params?: CatalogParam[];
  /** Validates params and describes the write without touching the platform's state. */
  plan(ctx: CrawlContext, params: Params): Promise<WritePlan>;
  /** One attempt. Throw SessionExpired/Blocked/RateLimited as for reads; the core maps them to states. */
  run(ctx: CrawlContext, params: Params): Promise<WriteOutcome>;
}

export type ActionDef = ItemsAction | CommentsAction | CreatorAction | TrendsAction | WriteAction | DownloadAction;

/** How replay matching treats this platform's request params. */
export interface ReplayRules {
  /** Ignored entirely: signatures, timestamps, nonces. */
  volatile?: string[];
  /** Identify the resource (id, query, container): must agree when both sides carry them, and at least one must agree. */
  identifying?: string[];
  /** Paging: must be present on both sides with the same value, or absent on both. */
  cursor?: string[];
  /**
   * Cursors that are opaque page tokens of one feed (a bookmark): present and equal on both sides, they
   * identify the request as well as an id would (a follow-up page often repeats nothing else).
   */
  identifyingCursor?: string[];
  /**
   * Route parts that say nothing about the answer (a GraphQL query id that rotates every few weeks, a
   * host's former name): each [pattern, replacement] rewrites `host/path` of requests and recordings alike
   * before their routes are compared. Only the rules of the host's own platform apply.
   */
  routes?: ReadonlyArray<readonly [RegExp, string]>;
}

export interface PlatformAdapter {
  id: string;
  name: string;
  region: 'CN' | 'global';
  aliases?: string[];
  auth: 'none' | 'cookie' | 'login';
  /** API/page hosts this adapter talks to (exact, or a suffix starting with a dot). */
  hosts: string[];
  /** Media CDN hosts (exact, or a suffix starting with a dot): the media proxy's allowlist. */
  mediaHosts: string[];
  /** Headers the media proxy sends to this platform's CDN (Referer, UA). */
  mediaHeaders?(url: URL): Record<string, string>;
  /** Minimum gap between two requests of one account, ms. */
  minGapMs: number;
  categories?: Category[];
  replay?: ReplayRules;
  /**
   * A light "who am I" request with the profile's login: ok, or session_expired when the platform no
   * longer knows the login. Throw Blocked/RateLimited as for reads.
   */
  probe?(ctx: CrawlContext): Promise<'ok' | 'session_expired'>;
  /**
   * GraphQL query ids, doc_ids, feature flags: as data (defaults here; the service layers the refreshed
   * file and CRAWLER_<SOURCE>_OPS over them, and hands the merge to every crawl as ctx.ops). refresh
   * re-derives them from the platform's own web bundle (`npx crawler platforms refresh <source>`).
   */
  ops?: { defaults: Record<string, unknown>; refresh(ctx: CrawlContext): Promise<Record<string, unknown>> };
  /** Where a human logs in (POST /v1/profiles/{platform}/{name}/login): page, the cookie that proves it, cookie domains. */
  login?: { url: string; successCookie: string; domains: string[] };
  /** Public profile URL of an author; used to derive Item.author_url centrally. */
  authorUrl(author: { id?: string; handle?: string }): string | undefined;
  actions: Partial<Record<ActionName, ActionDef>>;
}
