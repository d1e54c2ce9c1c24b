import { accessSync, constants, readFileSync } from 'node:fs';
import pino, { type Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './api/app.js';
import { TokenService } from './auth/tokens.js';
import { HealthTracker, type HealthOptions } from './accounts/health.js';
import { ProfileChecker } from './accounts/probe.js';
import { BrowserPool, defaultChromiumPath, LoginManager, PageSigner } from './accounts/browser/index.js';
import { parseCookies } from './accounts/cookies.js';
import { mergeCookies } from './crawl/http.js';
import { ProfileService } from './accounts/profiles.js';
import type { Config } from './config.js';
import { loadRecordings } from './crawl/replay/har.js';
import { ReplayDispatcher } from './crawl/replay/dispatcher.js';
import { EgressDispatchers } from './identity/egress.js';
import { browserProxyOf, Identities } from './identity/identities.js';
import { mediaUrlBuilder } from './media/urls.js';
import { serverKeys } from './auth/keys.js';
import { MediaSigner } from './media/capability.js';
import { loadOps } from './crawl/ops.js';
import { LocalPacer } from './crawl/pacer-local.js';
import { RequestLog } from './crawl/request-log.js';
import { ConfigError } from './config.js';
import { CursorSeal } from './tasks/cursor-seal.js';
import { policyFor } from './media/guard.js';
import { MediaProxy } from './media/proxy.js';
import { DetailRefresher } from './media/refresh.js';
import { urlHash } from './media/refs.js';
import { PreviewService } from './media/preview/service.js';
import { openBlobStore } from './blobs/open.js';
import { FileBlobStore } from './blobs/file.js';
import { join } from 'node:path';
import { DownloadService } from './download/service.js';
import { FileSigner } from './download/capability.js';
import type { BlobStore } from './blobs/types.js';
import type { Deployment } from './deploy/roles.js';
import { ffmpegAvailable } from './media/preview/ffmpeg.js';
import { safeAgent, systemResolver, type Resolver } from './media/safe-agent.js';
import { DEFAULT_UA } from './crawl/http.js';
import { Metrics } from './metrics.js';
import { buildCatalog } from './platforms/catalog.js';
import { Registry } from './platforms/registry.js';
import { EmbeddedQueue } from './queue/embedded.js';
import { openBatchStore, openEventLog, openIdentityStore, openStore, openWebhookOutbox } from './store/open.js';
import { BatchService } from './tasks/batches.js';
import { WebhookDeliverer } from './webhooks/deliverer.js';
import { webhookSecret } from './webhooks/signing.js';
import { judgeTarget } from './webhooks/target.js';
import { HostJudge } from './media/host-judge.js';
import type { Store } from './store/types.js';
import { ResultCache } from './tasks/cache.js';
import { EventBus } from './tasks/events.js';
import { EventPublisher } from './tasks/publisher.js';
import type { EventLog } from './tasks/event-log.js';
import { LocalCancelSignal } from './tasks/cancel-local.js';
import { Runner } from './tasks/runner.js';
import { TaskService } from './tasks/service.js';
import { IDEMPOTENCY_KEEP_MS } from './tasks/writes.js';
import { redisParts, type RedisParts } from './redis/fleet.js';
import type { TaskQueue } from './queue/types.js';
import type { WorkerHeartbeat } from './redis/heartbeat.js';
import { openWatchStore } from './store/open.js';
import type { WatchStore } from './store/watches.js';
import { WatchRuns } from './watches/runs.js';
import { WatchScheduler } from './watches/scheduler.js';
import { WatchService } from './watches/service.js';

export interface Service {
  config: Config;
  app: FastifyInstance;
  store: Store;
  runner: Runner;
  /** Task event fan-out (memory follows work in flight; tests watch its size). */
  bus: EventBus;
  /** Stored status and progress events (SSE resumes). */
  eventLog: EventLog;
  tokens: TokenService;
  dispatcher: Dispatcher;
  previews: PreviewService;
  downloads: DownloadService;
  logins: LoginManager;
  checker: ProfileChecker;
  browser: BrowserPool;
  log: Logger;
  /** Distributed processes that run crawls: this process's presence in the fleet's health. */
  heartbeat?: WorkerHeartbeat;
  /** Watches: the loop that fires due ones (tests call tick() under a fake clock), and their store. */
  watches: { scheduler: WatchScheduler; store: WatchStore };
  /** Starts the workers (re-queues tasks a dead process left running) and listens. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  registry?: Registry;
  logger?: Logger;
  pingMs?: number;
  /** Open SSE streams at once (default 10,000): event memory has a hard ceiling. */
  maxStreams?: number;
  /** Cooling backoff override (tests). */
  health?: HealthOptions;
  /** Mode and role, as resolveDeployment checked them (default: embedded, all). */
  deployment?: Deployment;
  /** Fleet timings (tests): heartbeat period and time to live (default 5 s, three periods), preview render lease and its poll. */
  fleet?: { heartbeatMs?: number; heartbeatTtlMs?: number; previewLeaseMs?: number; previewPollMs?: number };
  /** Download size caps (tests; default 2 GiB per file, 32 MiB per image). */
  download?: { fileCap?: number; imageCap?: number };
  /** Outbound dispatcher override (tests). */
  dispatcher?: Dispatcher;
  /** Proxied crawls: DNS override and target addresses allowed despite the SSRF rules (tests with a loopback platform). */
  egress?: { resolve?: Resolver; allowAddress?: (address: string) => boolean; connectTimeoutMs?: number };
  /** Media fetches: DNS override, addresses allowed despite the rules, extra ports (tests with a loopback CDN). */
  media?: { resolve?: Resolver; allowAddress?: (address: string) => boolean; extraPorts?: number[]; headersTimeoutMs?: number; idleTimeoutMs?: number; onRefused?: (host: string, address: string) => void };
  /** Webhooks (tests): DNS override, addresses allowed despite the rules (a loopback receiver), poll period, lease, attempt timeout, clock. */
  webhooks?: { resolve?: Resolver; allowAddress?: (address: string) => boolean; pollMs?: number; leaseMs?: number; timeoutMs?: number; now?: () => number };
  /** Watches (tests): the clock their times are read from, and seen ids kept per watch. */
  watches?: { now?: () => number; seenMax?: number };
}

export const VERSION = readVersion();

/** The composition root: everything is built here from config and handed down; nothing is global. */
export function createService(config: Config, opts: ServiceOptions = {}): Service {
  const log = opts.logger ?? pino({ level: config.logLevel });
  const deployment = opts.deployment ?? { mode: 'embedded', role: 'all' };
  const runsCrawls = deployment.role !== 'api';
  const registry = opts.registry ?? new Registry();
  const catalog = buildCatalog(registry);
  const store = openStore(config);
  const bus = new EventBus();
  // With CRAWLER_REDIS_URL, dispatch, pacing, cancels and SSE wake-ups go through Redis; otherwise all stays here.
  const fleet: RedisParts | undefined = config.redisUrl ? redisParts({ url: config.redisUrl, prefix: config.redisPrefix, store, bus, accountSlots: config.accountSlots, log, ...config.fleet }) : undefined;
  const events = new EventPublisher(bus, openEventLog(store), log, fleet?.relay);
  const metrics = new Metrics(() => store.countByStatus());
  const cache = new ResultCache(store);
  const dispatcher = opts.dispatcher ?? outboundDispatcher(config, registry, log);
  const queue: TaskQueue = fleet?.queue ?? new EmbeddedQueue(store);
  const keys = serverKeys(config);
  const mediaSigner = new MediaSigner(keys.media);
  const fileSigner = new FileSigner(keys.media);
  const urls = mediaUrlBuilder(config.publicUrl, mediaSigner);
  const cursors = new CursorSeal(keys.cursors);
  const health = new HealthTracker(store, opts.health);
  const cancels = fleet?.cancels ?? new LocalCancelSignal();
  const requestLog = config.requestLog ? new RequestLog(config.requestLog) : undefined;
  const identities = new Identities(openIdentityStore(store, config));
  const egress = new EgressDispatchers({ resolve: opts.egress?.resolve, allowAddress: opts.egress?.allowAddress, connectTimeoutMs: opts.egress?.connectTimeoutMs });
  const runner = new Runner({
    health,
    pacer: fleet?.pacer ?? new LocalPacer(),
    cancels,
    store,
    queue,
    events,
    catalog,
    cache,
    dispatcher,
    urls,
    metrics,
    log,
    workers: config.workers,
    claims: runsCrawls,
    // A shared store means other processes run these accounts too: each run reads their state afresh.
    sharedAccounts: Boolean(config.databaseUrl),
    accountSlots: config.accountSlots,
    minGapMs: config.minGapMs,
    replay: config.replay.length > 0,
    signModes: config.signModes,
    ops: opsOrConfigError(registry, config),
    cursors,
    requestLog,
    identities,
    egress,
  });
  const media = new MediaProxy({
    policy: policyFor(registry.adapters, new Set(opts.media?.extraPorts ?? []), async (url) => {
      const ref = await store.mediaRefGet(urlHash(url));
      return ref ? registry.get(ref.platform) : undefined;
    }),
    // Replay answers media from recordings too; live media goes through the address-checked agent.
    dispatcher: config.replay.length
      ? dispatcher
      : safeAgent({ resolve: opts.media?.resolve, allowAddress: opts.media?.allowAddress, headersTimeoutMs: opts.media?.headersTimeoutMs, idleTimeoutMs: opts.media?.idleTimeoutMs, onRefused: opts.media?.onRefused }),
    refresher: new DetailRefresher(store, runner),
    maxImageBytes: config.mediaMaxImageBytes,
    maxVideoBytes: config.mediaMaxVideoBytes,
    headersTimeoutMs: opts.media?.headersTimeoutMs ?? 15_000,
    userAgent: DEFAULT_UA,
    playlistUrls: mediaUrlBuilder(undefined, mediaSigner),
    // Media of a proxied profile leaves through its proxy too (replay answers from recordings instead).
    route: config.replay.length
      ? undefined
      : async (origin, req) => {
          const ref = req.video ? undefined : await store.mediaRefGet(urlHash(origin));
          const platform = req.video?.platform ?? ref?.platform;
          const profile = req.video ? (req.video.profile ?? 'default') : ref?.profile;
          if (!platform || !profile) return undefined;
          const e = await identities.egressOf(platform, profile);
          return e.proxy ? { dispatcher: egress.get(e.proxy), judge: (u) => egress.judge(u) } : undefined;
        },
  });
  const tokens = new TokenService(store);
  const browser = new BrowserPool({
    // A profile's browser context leaves through its proxy too (never in replay: nothing reaches a network there).
    proxyFor: config.replay.length ? undefined : (key) => browserProxyOf(identities, key),
    // Cookies a site renewed in the browser go back to the stored login (the profile's own names updated, others added).
    async onRetire(key, header) {
      const [platform, name] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
      const stored = await store.profileGet(platform, name);
      if (!stored?.cookies) return;
      await store.profileCookies(platform, name, mergeCookies(header, stored.cookies));
    },
  });
  const logins = new LoginManager(browser, {
    // A finished human login replaces the profile's cookies (its credentials stay) and makes it healthy.
    async onSuccess(platform, name, cookieHeader) {
      const before = await store.profileGet(platform, name);
      await store.profilePut({ platform, name, cookies: parseCookies(cookieHeader), credentials: before?.credentials ?? null });
      await store.profileHealth({ platform, name, health: 'ok', checked_at: Date.now(), cooling_until: null, strikes: 0 });
    },
  });
  const checker = new ProfileChecker(store, registry, runner, health, log);
  runner.onOutcome = (platform, profile, outcome) => checker.afterFailure(platform, profile, outcome);
  const signer = new PageSigner(browser);
  runner.signers = (adapter, profile, cookies, userAgent, signal) => ({
    sign: (req) => signer.sign(`${adapter.id}:${profile}`, { ...req, session: { cookies, userAgent, domains: adapter.login?.domains ?? adapter.hosts }, signal }),
  });
  const tools = { ffmpeg: false, browser: false };
  const ffmpeg = ffmpegAvailable();
  let selfUrl: string | undefined;
  const previews = new PreviewService({
    store,
    blobs: blobStoreOrConfigError(config),
    media,
    detail: (platform, id, profile, signal) => runner.detail(platform, id, profile, signal),
    hasDetail: (platform) => Boolean(catalog.get(platform, 'detail')),
    urls,
    dataDir: config.dataDir,
    workers: config.previewWorkers,
    ffmpeg,
    internalToken: tokens.internalToken,
    selfUrl: () => selfUrl,
    log,
    leaseMs: opts.fleet?.previewLeaseMs,
    pollMs: opts.fleet?.previewPollMs,
  });
  runner.previews = previews;
  const downloads = new DownloadService({
    store,
    // Embedded: files under the data dir; a fleet: the shared blob store every process reads.
    blobs: config.blob ? blobStoreOrConfigError(config) : new FileBlobStore(join(config.dataDir, 'downloads')),
    blobPrefix: config.blob ? 'downloads/' : '',
    tmpDir: join(config.dataDir, 'downloads-tmp'),
    media,
    signer: fileSigner,
    publicUrl: config.publicUrl,
    maxBytes: config.downloadMaxBytes,
    fileCap: opts.download?.fileCap,
    imageCap: opts.download?.imageCap,
    ffmpeg,
    log,
  });
  runner.downloads = downloads;
  const heartbeat = fleet && runsCrawls ? fleet.heartbeat({ role: deployment.role, slots: config.workers, running: () => runner.active, periodMs: opts.fleet?.heartbeatMs, ttlMs: opts.fleet?.heartbeatTtlMs }) : undefined;
  if (fleet) {
    fleet.queue.onWake = () => runner.pump();
    fleet.queue.onSettled = (row) => runner.emitFinal(row);
  }
  tools.ffmpeg = ffmpeg;
  // Launching Chromium to prove it works costs a second; health reports an executable that exists.
  tools.browser = isExecutable(defaultChromiumPath());
  const hooks = opts.webhooks ?? {};
  const targetResolve = hooks.resolve ?? systemResolver;
  const targetRules = { allowHttp: config.webhookAllowHttp, resolve: targetResolve, allowAddress: hooks.allowAddress, hosts: new HostJudge(targetResolve, { allowAddress: hooks.allowAddress, keepMs: 10_000 }) };
  const outbox = openWebhookOutbox(store);
  const signingSecret = webhookSecret(config);
  const webhooks = new WebhookDeliverer({
    outbox,
    secret: signingSecret,
    rules: targetRules,
    // Connect-time address rules on every attempt (DNS rebinding lands on the same check); redirects are never followed.
    dispatcher: safeAgent({ resolve: targetRules.resolve, allowAddress: hooks.allowAddress, headersTimeoutMs: hooks.timeoutMs ?? 10_000, idleTimeoutMs: hooks.timeoutMs ?? 10_000 }),
    metrics,
    log,
    userAgent: `social-crawler-webhooks/${VERSION}`,
    pollMs: hooks.pollMs,
    leaseMs: hooks.leaseMs,
    timeoutMs: hooks.timeoutMs,
    now: hooks.now,
  });
  // Only a task with a callback owes a delivery: other finishes leave the deliverer to its poll.
  runner.onFinal = (row) => {
    if (row.params.includes('"callback_url"')) webhooks.nudge();
  };
  const tasks = new TaskService(store, queue, catalog, cache, events, runner, metrics, cursors, mediaSigner, cancels, {
    judge: (url) => judgeTarget(url, targetRules),
    bornFinished: () => webhooks.nudge(),
  }, identities);
  const watchClock = opts.watches?.now ?? Date.now;
  const watchStore = openWatchStore(store, opts.watches?.seenMax);
  runner.watchRuns = new WatchRuns(watchStore, watchClock, log);
  const watches = new WatchService(watchStore, store, catalog, watchClock, config.watchMaxPerOwner, (url) => judgeTarget(url, targetRules));
  const scheduler = new WatchScheduler({ watches: watchStore, store, tasks, log, now: watchClock, tickMs: config.watchTickMs });
  const batchStore = openBatchStore(store);
  const batches = new BatchService(tasks, batchStore);
  const app = buildApp({
    config,
    deployment,
    store,
    tasks,
    watches,
    batches,
    bus,
    eventLog: events.log,
    runner,
    catalog,
    registry,
    tokens,
    profiles: new ProfileService(store, registry, identities),
    logins,
    checker,
    metrics,
    media,
    previews,
    downloads,
    fileSigner,
    urls,
    mediaSigner,
    version: VERSION,
    startedAt: Date.now(),
    tools,
    fleet: fleet && { workers: () => fleet.workers(), depths: () => fleet.queue.depths() },
    pingMs: opts.pingMs ?? 15_000,
    maxStreams: opts.maxStreams ?? 10_000,
    webhooks: { outbox, secret: signingSecret },
  });
  const purge = setInterval(() => {
    void (async () => {
      await store.cachePurgeExpired(Date.now());
      await store.idempotencyPurge(Date.now() - IDEMPOTENCY_KEEP_MS);
      await store.tasksPurge(Date.now() - config.taskRetentionDays * 86_400_000);
      await events.log.purge(Date.now() - config.taskRetentionDays * 86_400_000);
      await outbox.purge(Date.now() - config.taskRetentionDays * 86_400_000);
      await watchStore.purgeRuns(Date.now() - config.taskRetentionDays * 86_400_000);
      await batchStore.batchPurge(Date.now() - config.taskRetentionDays * 86_400_000);
    })().catch((e) => log.warn({ err: e }, 'purging expired rows failed'));
  }, 60_000);
  purge.unref();
  let closed = false;
  return {
    config,
    app,
    store,
    runner,
    bus,
    eventLog: events.log,
    tokens,
    dispatcher,
    previews,
    downloads,
    logins,
    checker,
    browser,
    log,
    heartbeat,
    watches: { scheduler, store: watchStore },
    async listen() {
      if (runsCrawls) {
        checker.start();
        await fleet?.ready;
        const orphans = await queue.recover();
        if (orphans) log.warn({ orphans }, 're-queued tasks that were running when the last process stopped');
        runner.pump();
        await heartbeat?.start().catch((e) => log.warn({ err: e }, 'first heartbeat not written; retried every period'));
      }
      // Every process with the store delivers: whichever finished the task, one lease decides who sends.
      webhooks.start();
      const url = await app.listen({ port: config.port, host: config.host });
      // Every role fires watches: the store's claim keeps each period to one run across the fleet.
      scheduler.start();
      const addr = app.server.address();
      if (addr && typeof addr === 'object') {
        const host = addr.address === '0.0.0.0' || addr.address === '::' ? '127.0.0.1' : addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
        selfUrl = `http://${host}:${addr.port}`;
      }
      return url;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(purge);
      await scheduler.stop();
      // Health stops counting this process at once, not when its key expires.
      await heartbeat?.stop().catch((e) => log.warn({ err: e }, 'heartbeat key not removed'));
      // A connection still busy after a grace period (a stream or a hijacked answer a client keeps open)
      // must not hold the shutdown: it is cut.
      const cut = setTimeout(() => app.server.closeAllConnections(), 2000);
      cut.unref();
      await app.close();
      clearTimeout(cut);
      await previews.close();
      await webhooks.stop();
      checker.stop();
      await logins.close();
      await browser.close();
      await runner.stop();
      await egress.close();
      await fleet?.close();
      requestLog?.close();
      bus.close();
      await store.close();
    },
  };
}

function outboundDispatcher(config: Config, registry: Registry, log: Logger): Dispatcher {
  // Crawl hosts can come from callers (a Mastodon instance): the same connect-time address rules apply.
  if (!config.replay.length) return safeAgent({ headersTimeoutMs: 30_000, idleTimeoutMs: 30_000 });
  const skipped: string[] = [];
  const recordings = loadRecordings(config.replay, (why) => skipped.push(why));
  log.info({ recordings: recordings.length, skipped: skipped.length, paths: config.replay }, 'replay mode: answering platform requests from recordings');
  for (const why of skipped.slice(0, 20)) log.warn(`replay: entry left out: ${why}`);
  const { defaultMs, hosts } = config.replayDelay;
  return new ReplayDispatcher({
    recordings,
    delayMs: (host) => hosts.get(host) ?? defaultMs,
    rulesFor: (host) => registry.forHost(host)?.replay,
    onMiss: (miss) => log.warn({ method: miss.method, url: miss.url }, miss.message),
  });
}


function readVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function blobStoreOrConfigError(config: Config): BlobStore {
  try {
    return openBlobStore(config.blob, config.dataDir);
  } catch (e) {
    throw new ConfigError(e instanceof Error ? e.message : String(e));
  }
}

/** Operation-data files are configuration: a missing or unreadable one stops the start like a bad variable. */
function opsOrConfigError(registry: Registry, config: Config): Map<string, Record<string, unknown>> {
  try {
    return loadOps(registry.adapters, config.dataDir, config.opsEnv);
  } catch (e) {
    throw new ConfigError(e instanceof Error ? e.message : String(e));
  }
}
