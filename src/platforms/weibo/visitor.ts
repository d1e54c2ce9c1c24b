import { Cancelled, CrawlError, isReplayMiss } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import type { CrawlContext, GuestJar } from '../types.js';

/*
 * Guest (visitor) cookies for weibo.com and s.weibo.com, minted through passport.weibo.com's
 * "Sina Visitor System", the page those sites redirect a cookieless client to:
 *
 *   1. POST passport.weibo.com/visitor/genvisitor  cb=gen_callback&fp=<browser fingerprint JSON>
 *      → `window.gen_callback && gen_callback({"retcode":20000000,"msg":"succ","data":{"tid":…,"new_tid":…,"confidence":95}});`
 *   2. GET  passport.weibo.com/visitor/visitor?a=incarnate&t=<tid>&w=<3 new tid | 2>&c=<confidence, 3 digits>&gc=&cb=cross_domain&from=weibo
 *      → `window.cross_domain && cross_domain({"retcode":20000000,"msg":"succ","data":{"sub":…,"subp":…}});`
 *        (the same pair also arrives as SUB / SUBP Set-Cookie headers).
 *
 * The pair is kept in the account's persisted guest jar (bound to its User-Agent) for a day.
 * m.weibo.cn answers anonymously and never needs them.
 */

export const PASSPORT_ORIGIN = 'https://passport.weibo.com';
export const VISITOR_ENDPOINTS = {
  genvisitor: `${PASSPORT_ORIGIN}/visitor/genvisitor`,
  incarnate: `${PASSPORT_ORIGIN}/visitor/visitor`,
} as const;

export const VISITOR_KEY = 'weibo:visitor-cookies';
export const VISITOR_TTL_MS = 24 * 3600_000;
/** After a failed mint the walls of this process are reported at once for this long, not re-minted per request. */
export const MINT_FAILED_KEY = 'weibo:visitor-mint-failed';
export const MINT_RETRY_MS = 10 * 60_000;

const SUCCESS = 20000000;

export interface VisitorCookies {
  sub: string;
  subp: string;
}

export interface VisitorTicket {
  tid: string;
  /** 3 for a freshly issued tid, 2 for a known one. */
  w: '2' | '3';
  /** The confidence, three digits ("095"; "100" when absent). */
  c: string;
}

/** A minting step that did not yield what the next step needs. */
export class VisitorMintError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VisitorMintError';
  }
}

/** `window.cb && cb({...});` (or a bare `cb({...})`) → the object; undefined when the text is no such call. */
export function parseJsonp(text: string, callback: string): Record<string, unknown> | undefined {
  const at = text.indexOf(`${callback}(`);
  if (at < 0) return undefined;
  const open = at + callback.length;
  const close = text.lastIndexOf(')');
  if (close <= open) return undefined;
  try {
    const v = JSON.parse(text.slice(open + 1, close)) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const dataOf = (body: Record<string, unknown>): Record<string, unknown> | undefined =>
  body.data && typeof body.data === 'object' && !Array.isArray(body.data) ? (body.data as Record<string, unknown>) : undefined;

function checkRetcode(body: Record<string, unknown>, step: string): void {
  if (body.retcode !== undefined && Number(body.retcode) !== SUCCESS) {
    const msg = typeof body.msg === 'string' && body.msg ? ` (${body.msg})` : '';
    throw new VisitorMintError(`${step} answered retcode ${String(body.retcode)}${msg}`);
  }
}

/** genvisitor's gen_callback answer → the ticket incarnate wants. */
export function parseGenVisitor(text: string): VisitorTicket {
  const body = parseJsonp(text, 'gen_callback');
  if (!body) throw new VisitorMintError('genvisitor did not answer a gen_callback(...) call');
  checkRetcode(body, 'genvisitor');
  const data = dataOf(body);
  const tid = typeof data?.tid === 'string' ? data.tid.trim() : '';
  if (!tid) throw new VisitorMintError('genvisitor answered no data.tid');
  const confidence = Number(data?.confidence ?? data?.c);
  const c = Number.isInteger(confidence) && confidence > 0 && confidence <= 100 ? String(confidence).padStart(3, '0') : '100';
  const isNew = data?.new_tid === true || data?.new_tid === 'true' || data?.new_tid === 1;
  return { tid, w: isNew ? '3' : '2', c };
}

/** `SUB=…` / `SUBP=…` out of the Set-Cookie lines (the client joins several with "\n"). */
export function cookiesFromSetCookie(setCookie: string | undefined): Partial<VisitorCookies> {
  const out: Partial<VisitorCookies> = {};
  for (const line of (setCookie ?? '').split('\n')) {
    const m = /^\s*(SUBP?)=([^;]*)/.exec(line);
    if (!m || !m[2] || m[2] === 'deleted') continue;
    if (m[1] === 'SUB') out.sub = m[2];
    else out.subp = m[2];
  }
  return out;
}

/** incarnate's cross_domain answer (data.sub / data.subp, else its Set-Cookie headers) → the cookie pair. */
export function parseIncarnate(text: string, setCookie?: string): VisitorCookies {
  const body = parseJsonp(text, 'cross_domain');
  if (body) checkRetcode(body, 'incarnate');
  const data = body ? dataOf(body) : undefined;
  const fromHeaders = cookiesFromSetCookie(setCookie);
  const sub = (typeof data?.sub === 'string' && data.sub) || fromHeaders.sub;
  const subp = (typeof data?.subp === 'string' && data.subp) || fromHeaders.subp;
  if (!sub) throw new VisitorMintError(body ? 'incarnate answered no data.sub and set no SUB cookie' : 'incarnate did not answer a cross_domain(...) call');
  // SUBP rides along in every known answer; SUB alone still passes the wall.
  return { sub, subp: subp ?? '' };
}

export const cookieHeader = (c: VisitorCookies): string => (c.subp ? `SUB=${c.sub}; SUBP=${c.subp}` : `SUB=${c.sub}`);

/** The fingerprint the visitor page computes in the browser, reduced to what genvisitor reads, for this agent. */
export function fingerprint(userAgent: string): string {
  const chrome = /(?:Chrome|Firefox|Version)\/([\d.]+)/.exec(userAgent);
  const name = /Firefox\//.test(userAgent) ? 'Firefox' : /Chrome\//.test(userAgent) ? 'Chrome' : 'Safari';
  const version = (chrome?.[1] ?? '0').split('.').join(',');
  const os = /Windows/.test(userAgent) ? '1' : /Mac OS X/.test(userAgent) ? '2' : '3';
  return JSON.stringify({ os, browser: `${name}${version}`, fonts: 'undefined', screenInfo: '1920*1080*24', plugins: '' });
}

function checkMintStatus(res: HttpResponse, step: string): void {
  if (res.status !== 200) throw new VisitorMintError(`${step} answered HTTP ${res.status}`);
}

const inFlight = new WeakMap<GuestJar, Promise<VisitorCookies>>();

/** Stored visitor cookies of this account, as a Cookie header; undefined when none are kept. */
export function storedVisitorCookies(ctx: CrawlContext): string | undefined {
  const kept = ctx.guest.get<VisitorCookies>(VISITOR_KEY);
  return kept?.sub ? cookieHeader(kept) : undefined;
}

export function forgetVisitorCookies(ctx: CrawlContext): void {
  ctx.guest.delete(VISITOR_KEY);
}

/**
 * Mints a fresh pair, stores it in the guest jar and answers its Cookie header. Concurrent callers of one
 * jar share one mint. Failure answers the reason (and is remembered for a while), never throws a CrawlError.
 */
export async function mintVisitorCookies(ctx: CrawlContext): Promise<{ cookie: string } | { failed: string }> {
  const failed = ctx.memo.get<string>(MINT_FAILED_KEY);
  if (failed) return { failed: `${failed}; not retried yet` };
  let pending = inFlight.get(ctx.guest);
  if (!pending) {
    pending = mint(ctx).finally(() => inFlight.delete(ctx.guest));
    inFlight.set(ctx.guest, pending);
  }
  try {
    const cookies = await pending;
    return { cookie: cookieHeader(cookies) };
  } catch (e) {
    if (e instanceof Cancelled) throw e;
    if (!(e instanceof VisitorMintError || e instanceof CrawlError || isReplayMiss(e))) throw e;
    const why = e.message;
    ctx.memo.set(MINT_FAILED_KEY, why, MINT_RETRY_MS);
    ctx.log.debug({ err: e }, 'weibo visitor cookies could not be minted');
    return { failed: why };
  }
}

async function mint(ctx: CrawlContext): Promise<VisitorCookies> {
  const referer = `${VISITOR_ENDPOINTS.incarnate}?entry=miniblog&a=enter&url=${encodeURIComponent('https://weibo.com/')}&domain=weibo.com&from=weibo`;
  const headers = { Accept: '*/*', Referer: referer, Origin: PASSPORT_ORIGIN };
  const gen = await ctx.http.request({
    method: 'POST',
    url: VISITOR_ENDPOINTS.genvisitor,
    form: { cb: 'gen_callback', fp: fingerprint(ctx.guest.userAgent) },
    headers,
    followRedirects: false,
  });
  checkMintStatus(gen, 'genvisitor');
  const ticket = parseGenVisitor(gen.text());
  const inc = await ctx.http.request({
    url: VISITOR_ENDPOINTS.incarnate,
    query: { a: 'incarnate', t: ticket.tid, w: ticket.w, c: ticket.c, gc: '', cb: 'cross_domain', from: 'weibo', _rand: Math.random().toFixed(16) },
    headers,
    followRedirects: false,
  });
  checkMintStatus(inc, 'incarnate');
  const cookies = parseIncarnate(inc.text(), inc.headers['set-cookie']);
  ctx.guest.set(VISITOR_KEY, cookies, VISITOR_TTL_MS);
  return cookies;
}
