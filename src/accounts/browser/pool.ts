import { existsSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { cookiesToHeader, headerToCookies, inScopes, type CookieScope } from './cookies.js';
import { BrowserPoolClosed, BrowserUnavailable } from './errors.js';
import { KeyedLock } from './lock.js';

/** The machine has no network: without the background-networking flags Chromium floods refused connections. */
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const defaultChromiumPath = (): string => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface BrowserPoolOptions {
  /** Default: $CHROMIUM_PATH, else /usr/bin/chromium (Debian's package). */
  executablePath?: string;
  /** Live contexts kept; the least recently used idle one is closed beyond this. Default 4. */
  maxContexts?: number;
  /** A context unused this long is closed, and the browser once it has none left. Default 5 min. */
  idleMs?: number;
  launchTimeoutMs?: number;
  /**
   * Called as a context closes with the cookies it holds within its scopes, so what the site set or
   * renewed during the context's life is written back to the profile.
   */
  onRetire?(key: string, cookieHeader: string): void | Promise<void>;
  /** The profile's proxy (key: platform:profile): its context leaves through it, like the rest of its traffic. */
  proxyFor?(key: string): Promise<BrowserProxy | undefined>;
}

/** Playwright's per-context proxy. */
export interface BrowserProxy {
  server: string;
  username?: string;
  password?: string;
}

export interface ProfileSession {
  /** The profile's stored Cookie header; put into the context when it is made or when this value changes. */
  cookies?: string | null;
  /** Where those cookies belong: ".example.com" (site and subdomains), "example.com" (that host) or a URL. */
  domains: CookieScope[];
  /** Fixed per profile; default: the installed Chromium's own user agent, minus "Headless". */
  userAgent?: string;
}

export type Availability = { ok: true; executablePath: string; version: string } | { ok: false; executablePath: string; error: string };

export interface PoolStats {
  executablePath: string;
  browser: 'stopped' | 'launching' | 'running';
  version?: string;
  maxContexts: number;
  /** Least recently used first. */
  contexts: Array<{ key: string; busy: boolean; idleMs: number }>;
  launches: number;
  /** Disconnects the pool did not ask for (crash, killed process). */
  crashes: number;
  evicted: { lru: number; idle: number };
}

interface Slot {
  key: string;
  browser: Browser;
  context: BrowserContext;
  page?: Page;
  userAgent: string;
  /** The proxy the context was made with ('' when direct): a changed proxy needs a new context. */
  proxied: string;
  applied?: string;
  busy: boolean;
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
  /** The cookie scopes of the profile's last use, for writing cookies back. */
  domains?: CookieScope[];
}

const PROBE_TTL_MS = 60_000;

/**
 * One lazily launched system Chromium, one context per profile ("platform:name") holding that
 * profile's cookies and user agent, and one page per context whose use is serialised.
 */
export class BrowserPool {
  readonly executablePath: string;
  private readonly maxContexts: number;
  private readonly idleMs: number;
  private readonly launchTimeoutMs: number;
  private browser?: Browser;
  private launching?: Promise<Browser>;
  /** Map order is recency: the first entry is the least recently used. */
  private readonly slots = new Map<string, Slot>();
  private readonly lock = new KeyedLock();
  private readonly crashedPages = new WeakSet<Page>();
  private readonly closedOnPurpose = new WeakSet<Browser>();
  private readonly closing = new Set<Promise<void>>();
  private browserIdle?: NodeJS.Timeout;
  private probe?: { at: number; result: Availability };
  private inFlight = 0;
  private closed = false;
  private readonly counts = { launches: 0, crashes: 0, lru: 0, idle: 0 };

  constructor(opts: BrowserPoolOptions = {}) {
    this.executablePath = opts.executablePath ?? defaultChromiumPath();
    this.maxContexts = Math.max(1, opts.maxContexts ?? 4);
    this.idleMs = opts.idleMs ?? 5 * 60_000;
    this.launchTimeoutMs = opts.launchTimeoutMs ?? 30_000;
    this.onRetire = opts.onRetire;
    this.proxyFor = opts.proxyFor;
  }

  private readonly proxyFor?: BrowserPoolOptions['proxyFor'];

  private readonly onRetire?: BrowserPoolOptions['onRetire'];

  /** Runs fn with the profile's page; calls for one profile wait for each other, other profiles run alongside. */
  async withPage<T>(
    key: string,
    session: ProfileSession,
    fn: (page: Page, context: BrowserContext) => Promise<T>,
    opts: { signal?: AbortSignal } = {},
  ): Promise<T> {
    if (this.closed) throw new BrowserPoolClosed();
    // Parsed before anything is held, so a bad header fails without touching the browser.
    const cookies = session.cookies ? headerToCookies(session.cookies, session.domains) : undefined;
    this.inFlight++;
    let slot: Slot | undefined;
    try {
      const release = await this.lock.acquire(key, opts.signal);
      try {
        if (this.closed) throw new BrowserPoolClosed();
        slot = await this.slotFor(key, session.userAgent);
        slot.domains = session.domains;
        const applied = cookies && `${session.domains.join(',')}\n${session.cookies}`;
        if (cookies && applied !== slot.applied) {
          await slot.context.addCookies(cookies);
          slot.applied = applied;
        }
        return await fn(await this.pageOf(slot), slot.context);
      } finally {
        if (slot) {
          slot.busy = false;
          slot.lastUsed = Date.now();
          if (this.slots.get(key) === slot) this.armIdle(slot);
        }
        release();
      }
    } finally {
      this.inFlight--;
      void this.trim(0);
    }
  }

  /** The profile's current cookies within the scopes as a Cookie header; undefined when it has no live context. */
  async exportCookies(key: string, domains: CookieScope[]): Promise<string | undefined> {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    const header = cookiesToHeader((await slot.context.cookies()).filter((c) => inScopes(c, domains)));
    return header || undefined;
  }

  /** Closes the profile's context (a wedged page, a changed login); the next use starts a fresh one. */
  async discard(key: string): Promise<void> {
    const slot = this.slots.get(key);
    if (slot) await this.retire(slot);
  }

  /** Whether Chromium exists and starts; a result is reused for a minute so health checks stay cheap. */
  async available(): Promise<Availability> {
    const executablePath = this.executablePath;
    if (this.browser?.isConnected()) return { ok: true, executablePath, version: this.browser.version() };
    if (this.probe && Date.now() - this.probe.at < PROBE_TTL_MS) return this.probe.result;
    let result: Availability;
    try {
      const browser = await this.ensureBrowser();
      result = { ok: true, executablePath, version: browser.version() };
      if (!this.slots.size) this.armBrowserIdle();
    } catch (e) {
      result = { ok: false, executablePath, error: (e as Error).message };
    }
    this.probe = { at: Date.now(), result };
    return result;
  }

  stats(): PoolStats {
    const now = Date.now();
    const running = this.browser?.isConnected();
    return {
      executablePath: this.executablePath,
      browser: running ? 'running' : this.launching ? 'launching' : 'stopped',
      version: running ? this.browser?.version() : undefined,
      maxContexts: this.maxContexts,
      contexts: [...this.slots.values()].map((s) => ({ key: s.key, busy: s.busy, idleMs: s.busy ? 0 : now - s.lastUsed })),
      launches: this.counts.launches,
      crashes: this.counts.crashes,
      evicted: { lru: this.counts.lru, idle: this.counts.idle },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const slot of [...this.slots.values()]) void this.retire(slot);
    await Promise.all(this.closing);
    clearTimeout(this.browserIdle);
    const browser = this.browser ?? (await this.launching?.catch(() => undefined));
    this.browser = undefined;
    if (browser) {
      this.closedOnPurpose.add(browser);
      await browser.close().catch(() => {});
    }
  }

  private async slotFor(key: string, userAgentWanted: string | undefined): Promise<Slot> {
    const browser = await this.ensureBrowser();
    const userAgent = userAgentWanted ?? chromeUserAgent(browser.version());
    const proxy = await this.proxyFor?.(key);
    const proxied = proxy ? JSON.stringify(proxy) : '';
    let slot = this.slots.get(key);
    if (slot && (slot.browser !== browser || slot.userAgent !== userAgent || slot.proxied !== proxied)) {
      await this.retire(slot);
      slot = undefined;
    }
    if (slot) {
      this.slots.delete(key);
      this.slots.set(key, slot);
      clearTimeout(slot.idleTimer);
      slot.busy = true;
      return slot;
    }
    await this.trim(1);
    const context = await browser.newContext({ userAgent, proxy });
    const fresh: Slot = { key, browser, context, userAgent, proxied, busy: true, lastUsed: Date.now() };
    context.on('close', () => {
      if (this.slots.get(key) === fresh) this.slots.delete(key);
    });
    this.slots.set(key, fresh);
    clearTimeout(this.browserIdle);
    return fresh;
  }

  private async pageOf(slot: Slot): Promise<Page> {
    const current = slot.page;
    if (current && !current.isClosed() && !this.crashedPages.has(current)) return current;
    const page = await slot.context.newPage();
    page.on('crash', () => {
      this.crashedPages.add(page);
      void page.close().catch(() => {});
    });
    slot.page = page;
    return page;
  }

  /** Closes least recently used idle contexts until `room` more fit; busy or awaited ones are never taken away. */
  private async trim(room: number): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const slot of [...this.slots.values()]) {
      if (this.slots.size + room <= this.maxContexts) break;
      if (slot.busy || this.lock.held(slot.key)) continue;
      this.counts.lru++;
      closing.push(this.retire(slot));
    }
    await Promise.all(closing);
  }

  private retire(slot: Slot): Promise<void> {
    clearTimeout(slot.idleTimer);
    if (this.slots.get(slot.key) === slot) this.slots.delete(slot.key);
    const done: Promise<void> = this.writeBack(slot)
      .then(() => slot.context.close())
      .catch(() => {})
      .finally(() => this.closing.delete(done));
    this.closing.add(done);
    if (!this.slots.size) this.armBrowserIdle();
    return done;
  }

  private async writeBack(slot: Slot): Promise<void> {
    if (!this.onRetire || !slot.domains) return;
    try {
      const header = cookiesToHeader((await slot.context.cookies()).filter((c) => inScopes(c, slot.domains!)));
      if (header) await this.onRetire(slot.key, header);
    } catch {
      // A crashed or closed context has nothing left to write back.
    }
  }

  private armIdle(slot: Slot): void {
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.busy || this.lock.held(slot.key) || this.slots.get(slot.key) !== slot) return;
      this.counts.idle++;
      void this.retire(slot);
    }, this.idleMs);
    slot.idleTimer.unref();
  }

  private armBrowserIdle(): void {
    clearTimeout(this.browserIdle);
    if (this.closed) return;
    this.browserIdle = setTimeout(() => {
      const browser = this.browser;
      if (!browser || this.slots.size || this.inFlight || this.launching) return;
      this.browser = undefined;
      this.closedOnPurpose.add(browser);
      void browser.close().catch(() => {});
    }, this.idleMs);
    this.browserIdle.unref();
  }

  private ensureBrowser(): Promise<Browser> {
    if (this.browser?.isConnected()) return Promise.resolve(this.browser);
    this.launching ??= this.launch().finally(() => (this.launching = undefined));
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const path = this.executablePath;
    if (!existsSync(path)) throw new BrowserUnavailable(`Chromium not found at ${path}: install the Debian package "chromium" or set CHROMIUM_PATH`);
    let browser: Browser;
    try {
      // Loaded at first launch: playwright-core costs ~0.4 s and ~90 MB, and most services never start a browser.
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: path,
        args: CHROMIUM_ARGS,
        timeout: this.launchTimeoutMs,
        // The service owns shutdown (close()); Playwright still kills the browser when the process exits.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (e) {
      throw new BrowserUnavailable(`Chromium at ${path} did not start: ${String((e as Error).message).split('\n')[0]}`);
    }
    this.counts.launches++;
    browser.on('disconnected', () => this.onDisconnected(browser));
    if (this.closed) {
      this.closedOnPurpose.add(browser);
      await browser.close().catch(() => {});
      throw new BrowserPoolClosed();
    }
    this.browser = browser;
    return browser;
  }

  private onDisconnected(browser: Browser): void {
    if (this.browser === browser) this.browser = undefined;
    if (!this.closedOnPurpose.has(browser)) this.counts.crashes++;
    for (const slot of [...this.slots.values()]) {
      if (slot.browser !== browser) continue;
      clearTimeout(slot.idleTimer);
      this.slots.delete(slot.key);
    }
  }
}

/** What a desktop Chrome of the installed version sends; headless Chromium announces itself otherwise. */
export function chromeUserAgent(version: string): string {
  const major = version.split('.')[0] || '0';
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}
