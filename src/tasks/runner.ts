import type { Dispatcher } from 'undici';
import type { Logger } from 'pino';
import type { Pacer } from '../crawl/pacer.js';
import type { CancelSignal } from './cancel.js';
import { isReplayMiss, SessionExpired } from '../crawl/errors.js';
import type { HealthTracker } from '../accounts/health.js';
import { PersistedGuestJar } from '../accounts/guest.js';
import type { ActionDef } from '../platforms/types.js';
import { errorBody, type ErrorBody } from '../domain/errors.js';
import type { TaskResult } from '../domain/results.js';
import type { MediaUrlBuilder } from '../media/urls.js';
import type { Metrics } from '../metrics.js';
import type { CatalogIndex } from '../platforms/catalog.js';
import type { PageSigning, Params, PlatformAdapter, WriteAction, WritePlan } from '../platforms/types.js';
import type { TaskQueue } from '../queue/types.js';
import type { ProfileRow, Store, TaskRow } from '../store/types.js';
import type { ResultCache } from './cache.js';
import { makeContext, MemoryMemo, type ContextDeps } from './context.js';
import { Lru } from './lru.js';
import { WRITE_ACTIONS } from './writes.js';
import type { EventPublisher } from './publisher.js';
import { executeAction } from './execute.js';
import type { DownloadService } from '../download/service.js';
import type { CursorSeal } from './cursor-seal.js';
import { cacheKey, validateParams } from './params.js';
import { mediaRefsOf } from '../media/refs.js';
import type { Item } from '../domain/item.js';
import type { Envelope } from '../domain/results.js';
import { taskJson } from './serialize.js';
import { poolOf } from '../identity/identities.js';
import type { RequestLog } from '../crawl/request-log.js';
import type { Identities } from '../identity/identities.js';
import type { EgressDispatchers } from '../identity/egress.js';
import type { WatchRuns } from '../watches/runs.js';

export interface RunnerDeps {
  health: HealthTracker;
  store: Store;
  queue: TaskQueue;
  events: EventPublisher;
  catalog: CatalogIndex;
  cache: ResultCache;
  dispatcher: Dispatcher;
  urls: MediaUrlBuilder;
  metrics: Metrics;
  log: Logger;
  workers: number;
  /** False in the api role: tasks are queued here and run by worker processes. */
  claims?: boolean;
  accountSlots: number;
  minGapMs?: number;
  /**
   * Other processes share the store and run this process's accounts too (a fleet): each run reads the
   * account's persisted state afresh instead of trusting this process's copy.
   */
  sharedAccounts?: boolean;
  /** Per-platform request gaps (in-process when embedded, shared by a fleet). */
  pacer: Pacer;
  /** Cancels asked anywhere reach this process's runs through it. */
  cancels: CancelSignal;
  replay: boolean;
  cursors: CursorSeal;
  /** CRAWLER_SIGN_MODE, parsed. */
  signModes?: ReadonlyMap<string, 'native' | 'browser' | 'auto'>;
  /** Each platform's operation data with the overrides applied (loadOps). */
  ops?: ReadonlyMap<string, Record<string, unknown>>;
  /** CRAWLER_REQUEST_LOG: every outbound platform request, with its account and task. */
  requestLog?: RequestLog;
  /** Profiles' proxies and outcomes; absent: every account goes direct and no outcomes are kept. */
  identities?: Identities;
  /** One dispatcher per proxy (live mode). */
  egress?: EgressDispatchers;
}

interface Running {
  abort: AbortController;
  account: string;
  /** The account's persisted state, once the run loaded it: stored before the account is released. */
  jar?: PersistedGuestJar;
}

/** What the runner needs of the preview layer (attached after construction: the two depend on each other). */
export interface PreviewAttacher {
  attach(item: Item, eager: boolean, profile: string): Promise<Item['preview']>;
}

/** Builds the in-page signer of one account (the browser layer is attached after construction). */
export type SignerFactory = (adapter: PlatformAdapter, profile: string, cookies: string | undefined, userAgent: string, signal: AbortSignal) => PageSigning;

/** In-process workers: claims queued tasks in order, one slot per account, and runs them. */
export class Runner {
  /** Told of each crawl outcome of an account (the login prober follows up on blocks). */
  onOutcome?: (platform: string, profile: string, outcome: string) => void | Promise<void>;
  previews?: PreviewAttacher;
  /** Stores the download action's files (attached after construction, like previews). */
  downloads?: DownloadService;
  signers?: SignerFactory;
  /** Watch runs (tasks with a watch_id): their results keep only new items, and their outcome moves the watch. */
  watchRuns?: WatchRuns;
  /** The crawls this process runs, by task id; a task's account slot is its entry here. */
  private readonly running = new Map<string, Running>();
  private readonly memos = new Map<string, MemoryMemo>();
  /** Guest jars are persisted on every change, so an evicted one is rebuilt from the store as it was. */
  private readonly jars = new Lru<Promise<PersistedGuestJar>>(2000);
  private stopped = false;
  private readonly idle = new Set<() => void>();

  constructor(private readonly d: RunnerDeps) {}

  /** Crawls this process runs now (the fleet heartbeat reports it). */
  get active(): number {
    return this.running.size;
  }

  /**
   * Claims as many queued tasks as free workers and account slots allow. One fill runs at a time (its
   * claims are awaited one by one, so the busy list stays true); a call meanwhile asks for another.
   */
  pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.fill()
      .catch((e) => this.d.log.error({ err: e }, 'claiming queued tasks failed'))
      .finally(() => {
        this.pumping = undefined;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  private pumping?: Promise<void>;
  private pumpAgain = false;

  private async fill(): Promise<void> {
    if (this.stopped || this.d.claims === false || this.running.size >= this.d.workers) return;
    const cooling = await this.d.health.cooling();
    if (cooling.nextEnd !== undefined) this.wakeAt(cooling.nextEnd);
    const busy = new Map<string, number>();
    for (const r of this.running.values()) busy.set(r.account, (busy.get(r.account) ?? 0) + 1);
    while (!this.stopped && this.running.size < this.d.workers) {
      const full = [...busy].filter(([, n]) => n >= this.d.accountSlots).map(([a]) => a);
      const row = await this.d.queue.claim([...full, ...cooling.accounts], Date.now());
      if (!row) break;
      busy.set(row.account, (busy.get(row.account) ?? 0) + 1);
      this.start(row);
    }
  }

  /** Runs a write's plan() outside the queue (for the 409 answer), with the profile's session. */
  async plan(adapter: PlatformAdapter, def: WriteAction, params: Params, signal: AbortSignal): Promise<WritePlan> {
    return def.plan(await this.sideContext(adapter, profileOf(params), signal, []), params);
  }

  /**
   * A detail crawl outside the queue, for the media layer (refreshing an expired URL, finding a stream
   * to preview). The item's native id is its detail reference. Its media refs are recorded like a task's.
   */
  async detail(platform: string, nativeId: string, profile: string, signal: AbortSignal): Promise<Envelope> {
    const found = this.d.catalog.get(platform, 'detail');
    if (!found) throw new Error(`${platform} has no detail action`);
    const params = validateParams(found.entry, { query: nativeId, profile });
    const warnings: string[] = [];
    const result = (await executeAction({ adapter: found.adapter, def: found.def, params, ctx: await this.sideContext(found.adapter, profile, signal, warnings), urls: this.d.urls, warnings })) as Envelope;
    if (result.items?.length) await this.d.store.mediaRefsPut(mediaRefsOf(found.adapter.id, profile, result.items), Date.now());
    return result;
  }

  /** The adapter's "who am I" probe with the profile's login, outside the queue; paced like crawls. */
  async probe(adapter: PlatformAdapter, profile: string, signal: AbortSignal): Promise<'ok' | 'session_expired'> {
    if (!adapter.probe) throw new Error(`${adapter.id} has no login probe`);
    return adapter.probe(await this.sideContext(adapter, profile, signal, []));
  }

  /** Re-derives the adapter's operation data from the platform's web bundle, with the profile's session. */
  async refreshOps(adapter: PlatformAdapter, profile: string, signal: AbortSignal, warnings: string[]): Promise<Record<string, unknown>> {
    if (!adapter.ops) throw new Error(`${adapter.id} keeps no operation data`);
    return adapter.ops.refresh(await this.sideContext(adapter, profile, signal, warnings));
  }

  private async sideContext(adapter: PlatformAdapter, profile: string, signal: AbortSignal, warnings: string[]) {
    const [stored, jar, egress] = await Promise.all([this.d.store.profileGet(adapter.id, profile), this.freshJar(adapter.id, profile), this.egressDeps(adapter.id, profile, warnings)]);
    return this.context(adapter, profile, stored, jar, signal, warnings, this.d.log.child({ side: adapter.id }), egress);
  }

  /**
   * How the account's requests leave: its own proxy (judged targets, failures named as the proxy's) or direct.
   * Replay answers from recordings whatever the proxy: nothing reaches a network, and the result says so.
   */
  private async egressDeps(platform: string, profile: string, warnings: string[], onProxyDown?: (why: string) => void): Promise<Partial<ContextDeps>> {
    const e = await this.d.identities?.egressOf(platform, profile);
    if (!e?.proxy) return { egress: 'direct' };
    const egress = this.d.egress;
    if (this.d.replay || !egress) {
      warnings.push(`profile "${profile}" has a proxy (${e.label}) that was not used: the crawl was replayed from recordings`);
      return { egress: e.id };
    }
    return {
      egress: e.id,
      dispatcher: egress.get(e.proxy),
      beforeSend: (url) => egress.judge(url),
      proxy: { label: e.label as string, onFailure: (why) => onProxyDown?.(why) },
    };
  }

  /** The one way this runner builds a crawl context: the profile's login, shared memo, guest jar and pacing. */
  private context(adapter: PlatformAdapter, profile: string, stored: ProfileRow | undefined, guest: PersistedGuestJar, signal: AbortSignal, warnings: string[], log: Logger, extra: Partial<ContextDeps> = {}) {
    return makeContext({
      adapter,
      profile,
      cookies: stored?.cookies ?? undefined,
      credentials: parseCredentials(stored?.credentials),
      memo: this.memo(adapter.id),
      guest,
      dispatcher: this.d.dispatcher,
      replay: this.d.replay,
      signModes: this.d.signModes,
      ops: this.d.ops?.get(adapter.id),
      pacer: this.d.pacer,
      gapMs: this.d.minGapMs,
      signal,
      log,
      warnings,
      onRequest: () => this.d.metrics.upstreamRequests.inc({ platform: adapter.id }),
      trace: this.d.requestLog?.trace({ platform: adapter.id, account: `${adapter.id}:${profile}` }),
      ...extra,
    });
  }

  private wake?: { at: number; timer: NodeJS.Timeout };

  /** Work waiting for a cooling account is picked up when the cooling ends. */
  private wakeAt(at: number): void {
    if (this.wake && this.wake.at <= at) return;
    if (this.wake) clearTimeout(this.wake.timer);
    const timer = setTimeout(() => {
      this.wake = undefined;
      this.pump();
    }, Math.max(10, at - Date.now() + 5));
    timer.unref();
    this.wake = { at, timer };
  }

  /** A cancel reached this run: the crawl is aborted and its slot freed at once (fleet-wide too). */
  private cancelled(row: TaskRow, r: Running): void {
    r.abort.abort();
    if (this.running.get(row.id) !== r) return;
    this.running.delete(row.id);
    void this.settle(row, r).then(() => this.pump());
  }

  /**
   * Tells the queue the run ended; a queue that cannot hear it gets the job back through its own recovery.
   * The account's state is stored first: the account's next task may start on another process at once.
   */
  private async settle(row: TaskRow, r: Running): Promise<void> {
    await r.jar?.saved();
    try {
      await this.d.queue.done(row);
    } catch (e) {
      this.d.log.warn({ err: e, task: row.id }, 'the queue did not hear that a run ended');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    // A fill in progress may still start what it claimed; those runs are aborted with the rest.
    await this.pumping;
    for (const [, r] of this.running) r.abort.abort();
    if (this.running.size) await new Promise<void>((resolve) => this.idle.add(resolve));
  }

  private start(row: TaskRow): void {
    const r: Running = { abort: new AbortController(), account: row.account };
    this.running.set(row.id, r);
    const watch = this.d.cancels.watch(row.id);
    watch.signal.addEventListener('abort', () => this.cancelled(row, r), { once: true });
    this.emitStatus(row);
    this.execute(row, r)
      .catch((e) => this.crashed(row, r, e))
      .finally(async () => {
        watch.release();
        // A cancel already freed the slot and told the queue, and a retry may have claimed the task again since.
        if (this.running.get(row.id) === r) {
          this.running.delete(row.id);
          await this.settle(row, r);
        }
        if (!this.running.size) for (const f of [...this.idle]) f();
        this.pump();
      });
  }

  /**
   * The run failed outside the crawl (the store refused a write, a listener threw): the task must not
   * stay running until the next restart, and the process must not die of an unhandled rejection.
   */
  private async crashed(row: TaskRow, r: Running, e: unknown): Promise<void> {
    this.d.log.error({ err: e, task: row.id }, 'task run failed outside the crawl');
    if (r.abort.signal.aborted) return;
    try {
      const seq = this.d.events.nextId(row.id, row.event_seq) + 1;
      const body = errorBody('upstream_error', `internal error: ${(e as Error)?.message ?? String(e)}`);
      const done = await this.d.store.finishTask(row.id, row.attempts, 'failed', null, body, Date.now(), seq);
      if (done && row.watch_id) await this.watchRuns?.failed(row, body);
      if (done) this.emitFinal(done);
    } catch (again) {
      this.d.log.error({ err: again, task: row.id }, 'could not record the failed task; it is re-queued at the next start');
    }
  }

  private async execute(row: TaskRow, r: Running): Promise<void> {
    const { store, catalog, metrics, log } = this.d;
    const started = Date.now();
    const labels = { source: row.source, action: row.action };
    let result: TaskResult | undefined;
    let failure: ErrorBody | undefined;
    const params = JSON.parse(row.params) as Params;
    // The account was fixed at submit (a pool task's pick included): the profile is its second half.
    const profile = row.account.slice(row.source.length + 1) || profileOf(params);
    let proxyDown: string | undefined;
    // Progress rows are written in emission order and all stored before the finish is.
    let progressSaved: Promise<void> = Promise.resolve();
    let retryAfterS: number | undefined;
    try {
      const found = catalog.get(row.source, row.action);
      if (!found) throw new Error(`${row.source}.${row.action} is no longer in the catalog`);
      const warnings: string[] = this.d.replay ? ['replayed from recordings (CRAWLER_REPLAY): not a live crawl'] : [];
      const [stored, jar, egress] = await Promise.all([
        store.profileGet(found.adapter.id, profile),
        this.freshJar(found.adapter.id, profile),
        this.egressDeps(found.adapter.id, profile, warnings, (why) => {
          if (!proxyDown) log.warn({ task: row.id, account: row.account }, `the account's proxy failed: ${why}; the account cools`);
          proxyDown ??= why;
        }),
      ]);
      r.jar = jar;
      if (stored) await store.profileTouch(found.adapter.id, profile, Date.now());
      const signer = this.signers?.(found.adapter, profile, stored?.cookies ?? undefined, jar.userAgent, r.abort.signal);
      const ctx = this.context(found.adapter, profile, stored, jar, r.abort.signal, warnings, log.child({ task: row.id, source: row.source, action: row.action }), {
        ...egress,
        signer,
        trace: this.d.requestLog?.trace({ platform: found.adapter.id, account: row.account, task: row.id, attempt: row.attempts }),
      });
      result = await executeAction({
        adapter: found.adapter,
        // A login known to have lapsed is not crawled with: the task ends at once, saying so.
        def: stored?.health === 'session_expired' ? expiredDef(found.def, `${found.adapter.id} profile "${profile}" needs a human re-login (GET /v1/profiles)`) : found.def,
        params: this.innerCursor(row, params),
        ctx,
        urls: this.d.urls,
        warnings,
        downloads: this.downloads,
        onRetryAfter: (seconds) => (retryAfterS = seconds),
        onProgress: (p) => {
          // Cancel aborts the signal; the publisher already knows the newest event id, so no read per page.
          if (r.abort.signal.aborted) return;
          const ev = this.d.events.publish(row.id, row.attempts, row.event_seq, 'progress', JSON.stringify(p));
          progressSaved = progressSaved.then(() => store.setProgress(row.id, ev.data, ev.id));
        },
      });
      const items = found.def.shape === 'items' ? (result as { items?: Item[] }).items : undefined;
      if (this.previews && items?.length && !r.abort.signal.aborted) {
        const eager = params.preview === 'eager';
        const previews = this.previews;
        await Promise.all(
          items.map(async (item) => {
            const p = await previews.attach(item, eager, profile);
            if (p) item.preview = p;
          }),
        );
      }
    } catch (e) {
      if (r.abort.signal.aborted) return;
      // Retrying cannot help: the recordings do not hold this request.
      if (isReplayMiss(e)) failure = { ...errorBody('upstream_error', (e as Error).message), retryable: false };
      else {
        log.error({ err: e, task: row.id }, 'task crashed');
        failure = errorBody('upstream_error', `internal error while crawling: ${(e as Error)?.message ?? String(e)}`);
      }
    }
    await progressSaved;
    if (r.abort.signal.aborted) return;
    if (result) this.sealCursor(row, params, result);
    // A pool task's result says which of the pool's profiles ran it (the task object says so too).
    if (result && poolOf(params.profile) && !WRITE_ACTIONS.has(row.action)) (result as { profile?: string }).profile = profile;
    const now = Date.now();
    metrics.crawlSeconds.observe(labels, (now - started) / 1000);
    // The publisher has counted every event this run emitted (status, progress): no read of the row needed.
    const seq = this.d.events.nextId(row.id, row.event_seq) + 1;
    // A watch's run stores only its new items; the cache below keeps the whole page for ordinary tasks.
    const run = row.watch_id && this.watchRuns ? await this.watchRuns.prepare(row, result, failure) : undefined;
    const stored = run ? run.result : result;
    const text = stored ? JSON.stringify(stored) : null;
    const done = await store.finishTask(row.id, row.attempts, result ? 'succeeded' : 'failed', text, failure ?? null, now, seq);
    if (!done) return;
    await run?.stored();
    try {
      if (result) {
        // The key leaves the cursor out: a later page stored under it would answer the next first-page request.
        if (params.cursor === undefined && row.action !== 'download') await this.d.cache.save(cacheKey(row.source, row.action, params), row.action, result, now);
        const items = (result as { items?: Array<Item | object> }).items;
        if (items?.length && 'provenance' in items[0]) await store.mediaRefsPut(mediaRefsOf(row.source, profile, items as Item[]), now);
      }
    } catch (e) {
      // The task has its result; bookkeeping after it must not keep the caller from hearing so.
      log.error({ err: e, task: row.id }, 'post-crawl bookkeeping failed');
    }
    const said = result ? ((result as { error?: ErrorBody }).error?.code ?? (result as { source?: string }).source ?? 'live') : (failure?.code ?? 'error');
    // A dead proxy cools the account (it is never re-homed to another address).
    const outcome = proxyDown && said !== 'live' && said !== 'empty' ? 'proxy_down' : said;
    let forHealth: string | undefined;
    if (result && !WRITE_ACTIONS.has(row.action)) forHealth = outcome;
    else if (result) {
      // A write the platform took (or refused for the login's sake) says as much about the login as a crawl.
      const state = (result as { state?: string }).state;
      forHealth = outcome === 'proxy_down' ? outcome : state === 'published' || state === 'deleted' ? 'live' : state === 'session_expired' || state === 'blocked' ? state : undefined;
    } else forHealth = outcome;
    if (this.d.identities && forHealth) await this.d.identities.record(row.source, profile, forHealth).catch((e) => log.warn({ err: e, task: row.id }, 'outcome not recorded'));
    if (result && !WRITE_ACTIONS.has(row.action)) {
      await this.d.health.record(row.source, profile, outcome, retryAfterS);
      await this.onOutcome?.(row.source, profile, outcome);
    } else if (result && forHealth) await this.d.health.record(row.source, profile, forHealth);
    metrics.tasksFinished.inc({ ...labels, status: result ? 'succeeded' : 'failed', outcome });
    this.emitFinal(done);
  }

  /** The caller holds sealed cursors (bound to source, action and query); the adapter gets the inner one. */
  private innerCursor(row: TaskRow, params: Params): Params {
    if (typeof params.cursor !== 'string') return params;
    return { ...params, cursor: this.d.cursors.open(params.cursor, row.source, row.action, params) };
  }

  private sealCursor(row: TaskRow, params: Params, result: TaskResult): void {
    const r = result as { next_cursor?: unknown; cursor?: unknown };
    if (typeof r.next_cursor === 'string') r.next_cursor = this.d.cursors.seal(r.next_cursor, row.source, row.action, params);
    if (row.action === 'comments' && typeof r.cursor === 'string') r.cursor = this.d.cursors.seal(r.cursor, row.source, row.action, params);
  }

  /** The account's jar as stored now when other processes run the account too, else this process's copy. */
  private async freshJar(platform: string, profile: string): Promise<PersistedGuestJar> {
    const cached = this.jars.get(`${platform}:${profile}`) !== undefined;
    const jar = await this.jar(platform, profile);
    if (cached && this.d.sharedAccounts) await jar.reload();
    return jar;
  }

  /** One jar per account even when two runs load it at once: the cache holds the load itself. */
  private jar(platform: string, profile: string): Promise<PersistedGuestJar> {
    const account = `${platform}:${profile}`;
    let j = this.jars.get(account);
    if (!j) {
      j = PersistedGuestJar.load(this.d.store, account, { onError: (e) => this.d.log.warn({ err: e, account }, 'guest jar not saved') });
      this.jars.set(account, j);
      j.catch(() => this.jars.delete(account));
    }
    return j;
  }

  private memo(platform: string): MemoryMemo {
    let m = this.memos.get(platform);
    if (!m) {
      m = new MemoryMemo();
      this.memos.set(platform, m);
    }
    return m;
  }

  private emitStatus(row: TaskRow): void {
    this.d.events.publish(row.id, row.attempts, row.event_seq - 1, 'status', taskJson(row, false));
  }

  /** status then result; the result event's id is the one stored as event_seq. */
  emitFinal(row: TaskRow): void {
    this.d.events.publish(row.id, row.attempts, row.event_seq - 2, 'status', taskJson(row, false));
    this.d.events.publish(row.id, row.attempts, row.event_seq - 1, 'result', taskJson(row, true));
    this.onFinal?.(row);
  }

  /** A task ended (it is stored so): the webhook deliverer looks for what it owes at once. */
  onFinal?: (row: TaskRow) => void;
}

function parseCredentials(text: string | null | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : undefined;
  } catch {
    return undefined;
  }
}

const profileOf = (params: Params): string => (params.profile as string | undefined) ?? 'default';

function expiredDef(def: ActionDef, message: string): ActionDef {
  const fail = async (): Promise<never> => {
    throw new SessionExpired(message);
  };
  switch (def.shape) {
    case 'items':
    case 'comments':
      return { ...def, page: fail } as ActionDef;
    case 'write':
      return { ...def, run: fail, plan: fail } as ActionDef;
    default:
      return { ...def, run: fail } as ActionDef;
  }
}
