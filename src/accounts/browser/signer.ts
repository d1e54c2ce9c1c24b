import type { Page } from 'playwright-core';
import { CrawlError, Timeout, UpstreamError } from '../../crawl/errors.js';
import type { BrowserPool, ProfileSession } from './pool.js';

export interface SignRequest {
  /** The profile's cookies and user agent, as for BrowserPool.withPage. */
  session: ProfileSession;
  /** The platform page whose own scripts define the signing code. */
  pageUrl: string;
  /** A function reachable from window, dotted for methods ("byted_acrawler.frontierSign"); called with args. */
  fn?: string;
  /** Or one JS expression evaluated in the page, with `args` in scope. */
  expression?: string;
  /** JSON values. */
  args?: unknown[];
  /**
   * Script run in the page before any of the site's own scripts, on every load (a hook that captures the
   * site's signer as it is built). A page loaded without it is reloaded once with it.
   */
  initScript?: string;
  /** For the evaluation; default: the signer's. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface PageSignerOptions {
  /** Loading pageUrl and waiting for fn to appear on it. Default 20 s. */
  loadTimeoutMs?: number;
  /** Default evaluation timeout. Default 5 s. */
  timeoutMs?: number;
}

const TIMED_OUT = Symbol('timed out');
const FN_PATH = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;

// Sent as source text, not a function: tsx's keepNames would inject helpers the page lacks, and
// Runtime.evaluate is not subject to the site's Content-Security-Policy (eval) rules.
const RESOLVE = `(path) => {
  const parts = path.replace(/^window\\./, '').split('.');
  let owner = globalThis;
  for (const p of parts.slice(0, -1)) owner = owner == null ? undefined : owner[p];
  const f = owner == null ? undefined : owner[parts[parts.length - 1]];
  return { owner, f };
}`;

/**
 * Computes request signatures by running the platform site's own JS inside the profile's page.
 * The page is loaded once per context and reused while it stays on that URL.
 */
export class PageSigner {
  private readonly loaded = new WeakMap<Page, { requested: string; landed: string }>();
  private readonly inits = new WeakMap<Page, Set<string>>();
  private readonly loadTimeoutMs: number;
  private readonly timeoutMs: number;
  private loads = 0;

  constructor(
    private readonly pool: BrowserPool,
    opts: PageSignerOptions = {},
  ) {
    this.loadTimeoutMs = opts.loadTimeoutMs ?? 20_000;
    this.timeoutMs = opts.timeoutMs ?? 5_000;
  }

  async sign<T = unknown>(profileKey: string, req: SignRequest): Promise<T> {
    if (Boolean(req.fn) === Boolean(req.expression)) throw new Error('in-page signer: give exactly one of fn or expression');
    if (req.fn && !FN_PATH.test(req.fn)) throw new Error(`in-page signer: "${req.fn.slice(0, 60)}" is not a dotted property path`);
    const attempt = () =>
      this.pool.withPage(
        profileKey,
        req.session,
        async (page) => {
          try {
            await this.ready(page, req);
            return await this.evaluate<T>(profileKey, page, req);
          } catch (e) {
            if (e instanceof UpstreamError && (page.isClosed() || /Target crashed|page crashed|has been closed/i.test(e.message))) {
              await this.discard(profileKey, page);
              throw new PageLost(e);
            }
            throw e;
          }
        },
        { signal: req.signal },
      );
    try {
      return await attempt();
    } catch (e) {
      // A renderer crash can surface before its crash event does; one fresh page settles it.
      if (!(e instanceof PageLost)) throw e;
      try {
        return await attempt();
      } catch (again) {
        throw again instanceof PageLost ? again.reported : again;
      }
    }
  }

  stats(): { loads: number } {
    return { loads: this.loads };
  }

  private async ready(page: Page, req: SignRequest): Promise<void> {
    let added = this.inits.get(page);
    const needsInit = req.initScript !== undefined && !added?.has(req.initScript);
    if (needsInit) {
      await page.addInitScript({ content: req.initScript! });
      if (!added) this.inits.set(page, (added = new Set()));
      added.add(req.initScript!);
    }
    const cached = this.loaded.get(page);
    if (!needsInit && cached && cached.requested === req.pageUrl && cached.landed === page.url()) return;
    this.loaded.delete(page);
    const deadline = Date.now() + this.loadTimeoutMs;
    this.loads++;
    let status: number | undefined;
    try {
      status = (await page.goto(req.pageUrl, { waitUntil: 'load', timeout: this.loadTimeoutMs }))?.status();
    } catch (e) {
      throw new UpstreamError(`in-page signer: loading ${req.pageUrl} failed: ${firstLine(e)}`);
    }
    if (status !== undefined && status >= 400) throw new UpstreamError(`in-page signer: ${req.pageUrl} answered HTTP ${status}`);
    // Sites often define their signer from a deferred script, after the load event.
    if (req.fn) {
      const probe = `typeof (${RESOLVE})(${JSON.stringify(req.fn)}).f === 'function'`;
      while (!(await page.evaluate(probe).catch(() => false))) {
        if (Date.now() >= deadline) {
          throw new UpstreamError(`in-page signer: ${req.pageUrl} did not define window.${req.fn} as a function within ${this.loadTimeoutMs} ms (the site may have changed)`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    this.loaded.set(page, { requested: req.pageUrl, landed: page.url() });
  }

  private async evaluate<T>(profileKey: string, page: Page, req: SignRequest): Promise<T> {
    const what = req.fn ? `window.${req.fn}()` : 'the signing expression';
    const args = JSON.stringify(req.args ?? []);
    const source = req.fn
      ? `(() => { const { owner, f } = (${RESOLVE})(${JSON.stringify(req.fn)});
          if (typeof f !== 'function') throw new Error('window.${req.fn} is not a function');
          return f.apply(owner, ${args}); })()`
      : `(() => { const args = ${args}; return (${req.expression}); })()`;
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const run = page.evaluate(source) as Promise<T>;
    run.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)));
    try {
      const outcome = await Promise.race([run, timedOut]);
      if (outcome !== TIMED_OUT) return outcome;
    } catch (e) {
      if (e instanceof CrawlError) throw e;
      throw new UpstreamError(`in-page signer: ${what} failed on ${req.pageUrl}: ${firstLine(e)}`);
    } finally {
      clearTimeout(timer);
    }
    await this.discard(profileKey, page);
    throw new Timeout(`in-page signer: ${what} did not return within ${timeoutMs} ms on ${req.pageUrl}; the page was discarded`);
  }

  /** A page stuck in a script cannot be trusted again; if it will not even close, its whole context goes. */
  private async discard(profileKey: string, page: Page): Promise<void> {
    this.loaded.delete(page);
    await Promise.race([page.close().catch(() => {}), new Promise((r) => setTimeout(r, 2_000))]);
    if (!page.isClosed()) await this.pool.discard(profileKey);
  }
}

class PageLost extends Error {
  constructor(readonly reported: UpstreamError) {
    super(reported.message);
  }
}

const firstLine = (e: unknown) => String((e as Error)?.message ?? e).split('\n')[0];
