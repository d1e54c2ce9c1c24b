import { NotFound, UpstreamError } from './errors.js';
import type { HttpResponse } from './http.js';
import type { CrawlContext } from '../platforms/types.js';

const MAX_HOPS = 4;
const DAY_MS = 24 * 3600_000;

export interface HopRules<T> {
  /** For messages: "share link https://v.douyin.com/x/". */
  what: string;
  /** Where the chain may lead; a redirect anywhere else is refused, naming the host. */
  onSite(url: URL): boolean;
  /** Recognizes the URL the chain was followed for and says what it names; undefined: follow on. */
  done(url: URL): T | undefined;
  headers?: () => Promise<Record<string, string>> | Record<string, string>;
  /** The platform's reading of an answer (captcha and login redirects), before the generic outcomes. */
  check?(res: HttpResponse, next: URL | undefined): void;
  /** Remembers the outcome for a day (share links do not change). */
  memoKey?: string;
}

/**
 * Follows a share link's redirects one hop at a time, reading only each Location: the page the chain
 * leads to is never fetched, its URL is all that is needed.
 */
export async function followHops<T>(ctx: CrawlContext, start: string, rules: HopRules<T>): Promise<T> {
  if (rules.memoKey) {
    const known = ctx.memo.get<T>(rules.memoKey);
    if (known !== undefined) return known;
  }
  let url = new URL(start);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const res = await ctx.http.request({ url: url.toString(), followRedirects: false, headers: await rules.headers?.() });
    const location = res.headers['location'];
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url);
      rules.check?.(res, next);
      if (!rules.onSite(next)) throw new UpstreamError(`${rules.what} redirects off the platform (${next.host})`);
      const found = rules.done(next);
      if (found !== undefined) {
        if (rules.memoKey) ctx.memo.set(rules.memoKey, found, DAY_MS);
        return found;
      }
      url = next;
      continue;
    }
    rules.check?.(res, undefined);
    if (res.status === 404) throw new NotFound(`${rules.what}: the link does not exist`);
    throw new UpstreamError(`${rules.what}: expected a redirect, got HTTP ${res.status}`);
  }
  throw new UpstreamError(`${rules.what}: too many redirects`);
}
