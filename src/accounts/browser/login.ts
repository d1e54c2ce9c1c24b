import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { cookiesToHeader, inScopes, type CookieScope } from './cookies.js';
import type { BrowserPool } from './pool.js';

export type SuccessWhen = { cookie: string } | { urlMatches: RegExp };

export interface LoginRequest {
  platform: string;
  name: string;
  loginUrl: string;
  /**
   * cookie: the named cookie appears in the scopes, or changes value if the profile already had it
   * (an expired session's cookie does not count). urlMatches: the page's URL matches (must not match loginUrl).
   */
  successWhen: SuccessWhen;
  /** Cookie scopes of the platform; the cookies handed to onSuccess are those within them. */
  domains: CookieScope[];
  /** Default 5 min. */
  timeoutMs?: number;
  /** Cookies to start from (device ids some sites want kept); absent: the context's jar as it is. */
  cookies?: string | null;
  userAgent?: string;
}

export type LoginState = 'waiting' | 'done' | 'failed' | 'expired';

/** What a remote operator does on the login page they see as screenshots (coordinates in screenshot pixels). */
export type LoginInput =
  | { action: 'click'; x: number; y: number }
  | { action: 'type'; text: string }
  | { action: 'key'; key: string }
  | { action: 'scroll'; dy: number };

/** Keys an operator may press: enough to move through and submit a form, nothing that drives the browser itself. */
export const LOGIN_KEYS = ['Enter', 'Tab', 'Shift+Tab', 'Backspace', 'Delete', 'Escape', 'Space', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown'] as const;

export interface LoginStatus {
  id: string;
  platform: string;
  name: string;
  state: LoginState;
  startedAt: number;
  /** When a waiting login expires: timeoutMs after the login page loaded. */
  endsAt: number;
  finishedAt?: number;
  /** The login page's current URL, while waiting. */
  url?: string;
  error?: string;
  /** PNG of the login page (form or QR code), taken when asked while waiting; the last one afterwards. */
  screenshot?: Buffer;
}

export interface LoginManagerOptions {
  /** Store the cookies and mark the profile healthy; a throw fails the login. */
  onSuccess(platform: string, name: string, cookieHeader: string): void | Promise<void>;
  /** Default 500 ms. */
  pollMs?: number;
  /** Finished logins stay readable this long. Default 10 min. */
  keepMs?: number;
}

interface Login {
  id: string;
  key: string;
  status: LoginStatus;
  page?: Page;
  stop: AbortController;
  ran?: Promise<void>;
}

/**
 * Human re-login in the profile's own browser context: the page is shown to the human as screenshots
 * while the success condition is polled; the context holds the profile while the login waits.
 */
export class LoginManager {
  private readonly logins = new Map<string, Login>();
  private readonly pollMs: number;
  private readonly keepMs: number;

  constructor(
    private readonly pool: BrowserPool,
    private readonly opts: LoginManagerOptions,
  ) {
    this.pollMs = opts.pollMs ?? 500;
    this.keepMs = opts.keepMs ?? 10 * 60_000;
  }

  /** Resolves with the login id once the login page has loaded; a second start for a waiting profile returns the first id. */
  async start(req: LoginRequest): Promise<string> {
    const key = `${req.platform}:${req.name}`;
    const running = [...this.logins.values()].find((l) => l.key === key && l.status.state === 'waiting');
    if (running) return running.id;
    const timeoutMs = req.timeoutMs ?? 5 * 60_000;
    const startedAt = Date.now();
    const login: Login = {
      id: randomUUID(),
      key,
      stop: new AbortController(),
      status: { id: '', platform: req.platform, name: req.name, state: 'waiting', startedAt, endsAt: startedAt + timeoutMs },
    };
    login.status.id = login.id;
    this.logins.set(login.id, login);
    let opened!: () => void;
    const open = new Promise<void>((resolve, reject) => {
      opened = resolve;
      login.ran = this.pool
        .withPage(
          key,
          { cookies: req.cookies, domains: req.domains, userAgent: req.userAgent },
          async (page, context) => {
            login.page = page;
            page.on('crash', () => this.finish(login, 'failed', 'the login page crashed'));
            const before = 'cookie' in req.successWhen ? await cookieValue(context, req.successWhen.cookie, req.domains) : undefined;
            await page.goto(req.loginUrl, { timeout: Math.min(timeoutMs, 30_000) });
            // The human's time starts when there is something to look at.
            login.status.endsAt = Date.now() + timeoutMs;
            opened();
            await this.watch(login, page, context, req, before, timeoutMs);
          },
          { signal: AbortSignal.any([login.stop.signal, AbortSignal.timeout(timeoutMs)]) },
        )
        .catch((e: unknown) => {
          const busy = (e as Error)?.name === 'TimeoutError' ? new Error(`login: profile ${key} stayed busy for ${timeoutMs} ms`) : e;
          this.finish(login, 'failed', String((busy as Error)?.message ?? busy).split('\n')[0]);
          reject(busy);
        });
    });
    try {
      await open;
    } catch (e) {
      this.logins.delete(login.id);
      throw e;
    }
    return login.id;
  }

  async get(id: string, opts: { screenshot?: boolean } = {}): Promise<LoginStatus | undefined> {
    const login = this.logins.get(id);
    if (!login) return undefined;
    const page = login.page;
    if (login.status.state === 'waiting' && page && !page.isClosed()) {
      login.status.url = page.url();
      if (opts.screenshot !== false) {
        const png = await page.screenshot({ timeout: 5_000 }).catch(() => undefined);
        if (png) login.status.screenshot = png;
      }
    }
    return { ...login.status };
  }

  /** Gives up a waiting login (state failed, error "cancelled"). */
  cancel(id: string): boolean {
    const login = this.logins.get(id);
    if (!login || login.status.state !== 'waiting') return false;
    this.finish(login, 'failed', 'cancelled');
    return true;
  }

  /**
   * Forwards one input of the human who watches the screenshots: a click, typed text, a key or a scroll.
   * Undefined when the login is unknown; false when it is no longer waiting.
   */
  async input(id: string, input: LoginInput): Promise<boolean | undefined> {
    const login = this.logins.get(id);
    if (!login) return undefined;
    const page = login.page;
    if (login.status.state !== 'waiting' || !page || page.isClosed()) return false;
    switch (input.action) {
      case 'click':
        await page.mouse.click(input.x, input.y);
        break;
      case 'type':
        await page.keyboard.type(input.text, { delay: 10 });
        break;
      case 'key':
        await page.keyboard.press(input.key === 'Space' ? ' ' : input.key);
        break;
      case 'scroll':
        await page.mouse.wheel(0, input.dy);
        break;
    }
    return true;
  }

  /** The live login page while waiting: for tests acting as the human, and for tools forwarding a human's input. */
  page(id: string): Page | undefined {
    const login = this.logins.get(id);
    return login?.status.state === 'waiting' ? login.page : undefined;
  }

  async close(): Promise<void> {
    const all = [...this.logins.values()];
    for (const login of all) this.finish(login, 'failed', 'the service is shutting down');
    await Promise.all(all.map((l) => l.ran));
  }

  private async watch(login: Login, page: Page, context: BrowserContext, req: LoginRequest, before: string | undefined, timeoutMs: number): Promise<void> {
    while (login.status.state === 'waiting') {
      if (Date.now() >= login.status.endsAt) {
        this.finish(login, 'expired', `nobody logged in within ${timeoutMs} ms`);
        // Leaves no half-typed credentials on the profile's page.
        await page.goto('about:blank').catch(() => {});
        return;
      }
      if (page.isClosed()) return this.finish(login, 'failed', 'the login page was closed');
      if (await succeeded(page, context, req, before)) {
        const header = cookiesToHeader((await context.cookies()).filter((c) => inScopes(c, req.domains)));
        if (!header) return this.finish(login, 'failed', `logged in, but no cookies within ${req.domains.join(', ')}`);
        try {
          await this.opts.onSuccess(req.platform, req.name, header);
        } catch (e) {
          return this.finish(login, 'failed', `storing the new cookies failed: ${(e as Error).message}`);
        }
        return this.finish(login, 'done');
      }
      await sleep(Math.min(this.pollMs, Math.max(0, login.status.endsAt - Date.now())), login.stop.signal);
    }
  }

  private finish(login: Login, state: Exclude<LoginState, 'waiting'>, error?: string): void {
    if (login.status.state !== 'waiting') return;
    Object.assign(login.status, { state, error, finishedAt: Date.now() });
    login.stop.abort();
    setTimeout(() => this.logins.delete(login.id), this.keepMs).unref();
  }
}

async function succeeded(page: Page, context: BrowserContext, req: LoginRequest, before: string | undefined): Promise<boolean> {
  if ('urlMatches' in req.successWhen) {
    req.successWhen.urlMatches.lastIndex = 0;
    return req.successWhen.urlMatches.test(page.url());
  }
  const now = await cookieValue(context, req.successWhen.cookie, req.domains);
  return now !== undefined && now !== before;
}

async function cookieValue(context: BrowserContext, name: string, scopes: CookieScope[]): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === name && inScopes(c, scopes))?.value;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * For a terminal: writes the screenshot next to the data and returns its path. A QR code is not
 * redrawn as text: that would need decoding it, and a blurry re-draw is worse than the real image.
 */
export async function saveLoginScreenshot(png: Buffer, dir: string, id: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `login-${id.replace(/[^A-Za-z0-9-]/g, '')}.png`);
  await writeFile(path, png);
  return path;
}
