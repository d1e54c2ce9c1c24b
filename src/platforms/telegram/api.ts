import { firstAnswering } from '../../crawl/fallback.js';
import { throwForStatus, type HttpResponse, type Query } from '../../crawl/http.js';
import { Blocked, CrawlError, NotFound, ParseError, RateLimited, UpstreamError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { parseHistory, type HistoryPage } from './parse.js';
import { ORIGIN } from './refs.js';

/*
 * t.me's public web preview, and how it answers, in one place.
 *
 * - t.me/s/<channel>[?before=<id>|?q=<kw>] is the channel history (about 20 messages, oldest first).
 *   A channel without a public preview (private, a user, a bot, a group, preview disabled, or no such
 *   username) is answered with a redirect away from /s/ to t.me/<channel>.
 * - t.me/s/<channel>/<id> is the history around one message.
 * - t.me/<channel>/<id>?embed=1 is the single-message widget; "Post not found" comes as
 *   .tgme_widget_message_error.
 * - "No posts found" (.tme_no_messages_found) is an honest no-result for a ?q= search, but on a plain
 *   history page it is what t.me serves to a client it throttles (every channel has at least its
 *   "Channel created" service message), so there it is rate limiting, not an empty channel.
 */

export const ENDPOINTS = {
  history: (channel: string) => `${ORIGIN}/s/${channel}`,
  around: (channel: string, id: string) => `${ORIGIN}/s/${channel}/${id}`,
  embed: (channel: string, id: string) => `${ORIGIN}/${channel}/${id}`,
  card: (channel: string) => `${ORIGIN}/${channel}`,
} as const;

export function pageHeaders(): Record<string, string> {
  return {
    Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    // Counter labels ("subscribers") and markers ("No posts found") are read in English.
    'Accept-Language': 'en-US,en;q=0.9',
  };
}

export type Fetched = { kind: 'page'; url: string; html: string } | { kind: 'moved'; from: string; to: URL };

const TME = /^(?:www\.)?(?:t\.me|telegram\.me)$/i;
const MAX_HOPS = 3;

/** HTTP-level outcomes shared by every t.me page. */
export function checkStatus(res: HttpResponse): void {
  const u = new URL(res.url);
  if (res.status === 404) throw new NotFound(`HTTP 404 from ${u.host}${u.pathname}`);
  if (res.status === 403 || res.status === 418) throw new Blocked(`HTTP ${res.status} from ${u.host}: t.me refused the request`);
  throwForStatus(res);
  if (res.status >= 400) throw new UpstreamError(`HTTP ${res.status} from ${u.host}${u.pathname}`);
}

/**
 * GET a t.me page with redirects handled by hand: a hop that stays on the same kind of page (say a
 * username's case being fixed) is followed; a hop from /s/ to a plain t.me/<name> means "no public
 * preview" and is handed back as `moved` for the caller to judge.
 */
export async function fetchPage(ctx: CrawlContext, url: string, query?: Query): Promise<Fetched> {
  let res = await ctx.http.request({ url, query, headers: pageHeaders(), followRedirects: false });
  for (let hop = 0; res.status >= 300 && res.status < 400; hop++) {
    const from = new URL(res.url);
    const location = res.headers['location'];
    if (!location) throw new UpstreamError(`HTTP ${res.status} without a Location from ${from.host}${from.pathname}`);
    const to = new URL(location, from);
    if (!TME.test(to.hostname)) throw new UpstreamError(`t.me redirected ${from.pathname} to ${to.host}`);
    if (from.pathname.startsWith('/s/') !== to.pathname.startsWith('/s/')) return { kind: 'moved', from: res.url, to };
    if (hop >= MAX_HOPS) throw new UpstreamError(`too many redirects from ${from.host}${from.pathname}`);
    res = await ctx.http.request({ url: to.toString(), headers: pageHeaders(), followRedirects: false });
  }
  checkStatus(res);
  return { kind: 'page', url: res.url, html: res.text() };
}

export function noPreview(channel: string): NotFound {
  return new NotFound(`t.me/s/${channel} redirects to t.me/${channel}: there is no public web preview of that name (private channel, group, user, bot, preview disabled, or no such channel)`);
}

/** A history page (posts or search), checked for what t.me meant by it. */
export function readHistory(fetched: Fetched, channel: string, opts: { search: boolean }): HistoryPage {
  if (fetched.kind === 'moved') throw noPreview(channel);
  const page = parseHistory(fetched.html);
  const where = `t.me/s/${channel}`;
  if (!page.isTme) throw new ParseError(`${where} did not answer a t.me page`);
  if (page.messages.length > 0) return page;
  if (page.noMessagesFound) {
    if (opts.search) return page;
    throw new RateLimited(`${where} answered "No posts found" for the channel's history, which t.me does when it throttles a client`);
  }
  // A history section with nothing in it is a channel without posts: the honest empty.
  if (page.hasHistory) return page;
  if (page.channel || page.isCard) throw new NotFound(`${where} shows no message history: the channel has no public web preview`);
  throw new ParseError(`${where} answered a page with neither a message history nor a channel header`);
}

/**
 * Why a page is not the one asked for, or undefined when it is: a ?before=<id> page holding only
 * messages at or after <id>, or a newest page that links to newer messages, is another page (a t.me
 * glitch, or a replayed recording of another page) and must not pass for the one requested.
 */
export function pageMismatch(page: HistoryPage, before: string | undefined): string | undefined {
  if (page.messages.length === 0) return undefined;
  if (before !== undefined) {
    const b = Number(before);
    return page.messages.some((m) => m.id < b) ? undefined : `asked for messages before ${before}, got ${page.messages[0].id}…${page.messages[page.messages.length - 1].id}`;
  }
  return page.hasNewer ? 'asked for the newest messages, got a page that links to newer ones' : undefined;
}

/** An error after which a second route (the embed widget, the channel card) is worth trying. */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || (e instanceof CrawlError && e.code === 'upstream_error');
}

/** `primary`, then `fallback` when primary failed non-terminally or found nothing (see firstAnswering). */
export function withFallback<T>(primary: () => Promise<T | undefined>, fallback: () => Promise<T>): Promise<T> {
  return firstAnswering<T>([primary, fallback], isFallbackable);
}
