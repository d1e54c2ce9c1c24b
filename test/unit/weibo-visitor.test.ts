import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ReplayMiss, SessionExpired } from '../../src/crawl/errors.js';
import type { HttpRequest, HttpResponse } from '../../src/crawl/http.js';
import { buildUrl } from '../../src/crawl/http.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { weibo } from '../../src/platforms/weibo/index.js';
import {
  VISITOR_KEY,
  VisitorMintError,
  cookiesFromSetCookie,
  fingerprint,
  parseGenVisitor,
  parseIncarnate,
  parseJsonp,
} from '../../src/platforms/weibo/visitor.js';
import type { CrawlContext, CreatorAction, GuestJar, ItemsAction, TrendsAction } from '../../src/platforms/types.js';

const SANDBOX = resolve(process.cwd(), 'sandbox/weibo');
const FIXTURES = resolve(process.cwd(), '../shared/fixtures/weibo');
const recorded = (file: string, i = 0): string => JSON.parse(readFileSync(file, 'utf8')).log.entries[i].response.content.text;

const GEN = (data: Record<string, unknown>, retcode = 20000000) =>
  `window.gen_callback && gen_callback(${JSON.stringify({ retcode, msg: retcode === 20000000 ? 'succ' : 'fail', data })});`;
const CROSS = (data?: Record<string, unknown>, retcode = 20000000) =>
  `window.cross_domain && cross_domain(${JSON.stringify({ retcode, msg: 'succ', ...(data ? { data } : {}) })});`;

describe('visitor JSONP answers', () => {
  it('genvisitor: tid, w=3 for a new tid, confidence as three digits', () => {
    expect(parseGenVisitor(GEN({ tid: '01AZ8_PWqOc7V', new_tid: true, confidence: 95 }))).toEqual({ tid: '01AZ8_PWqOc7V', w: '3', c: '095' });
    expect(parseGenVisitor(GEN({ tid: 'ztJRzNSeTZI4vRNqIXL2G8dnoyUfnNBEmuTPtilfVLE=', new_tid: false }))).toEqual({
      tid: 'ztJRzNSeTZI4vRNqIXL2G8dnoyUfnNBEmuTPtilfVLE=',
      w: '2',
      c: '100',
    });
    // A bare call without the window guard, as some answers come.
    expect(parseGenVisitor('gen_callback({"retcode":20000000,"data":{"tid":"t1"}})').tid).toBe('t1');
  });

  it('genvisitor: a failing retcode, a missing tid or a non-JSONP page is a mint error', () => {
    expect(() => parseGenVisitor(GEN({ tid: 'x' }, 50111200))).toThrow(/retcode 50111200/);
    expect(() => parseGenVisitor(GEN({}))).toThrow(/no data\.tid/);
    expect(() => parseGenVisitor('<html><title>Sina Visitor System</title></html>')).toThrow(VisitorMintError);
  });

  it('incarnate: data.sub / data.subp, else the Set-Cookie headers', () => {
    expect(parseIncarnate(CROSS({ sub: '_2AkMd', subp: '0033WrSX' }))).toEqual({ sub: '_2AkMd', subp: '0033WrSX' });
    const setCookie = ['SUB=_2AkHdr; path=/; domain=.weibo.com; secure; httponly', 'SUBP=0033Hdr; expires=Thu, 01-Jan-2099 00:00:00 GMT; path=/; domain=.weibo.com'].join('\n');
    expect(parseIncarnate(CROSS(), setCookie)).toEqual({ sub: '_2AkHdr', subp: '0033Hdr' });
    expect(cookiesFromSetCookie('SUB=deleted; path=/\nSRF=1')).toEqual({});
  });

  it('incarnate: no sub anywhere, or a failing retcode, is a mint error', () => {
    expect(() => parseIncarnate(CROSS({}))).toThrow(/no data\.sub/);
    expect(() => parseIncarnate(CROSS({ sub: 'a' }, 50111100))).toThrow(/retcode/);
    expect(() => parseIncarnate('<html></html>')).toThrow(/cross_domain/);
  });

  it('parseJsonp reads only the named callback', () => {
    expect(parseJsonp('cb({"a":1});', 'cb')).toEqual({ a: 1 });
    expect(parseJsonp('other({"a":1});', 'cb')).toBeUndefined();
    expect(parseJsonp('cb(not json)', 'cb')).toBeUndefined();
  });

  it('the fingerprint names the jar agent', () => {
    const fp = JSON.parse(fingerprint('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'));
    expect(fp).toMatchObject({ os: '1', browser: 'Chrome124,0,0,0' });
  });
});

// ---------------------------------------------------------------------------------------------
// Actions with a scripted http and a guest jar.

type Answer = { status?: number; body: string; headers?: Record<string, string> } | Error;
type Route = [RegExp, (url: URL, req: HttpRequest) => Answer];

const UA = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36';

function jar(): GuestJar & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  return { userAgent: UA, entries, get: <T>(k: string) => entries.get(k) as T | undefined, set: (k, v) => void entries.set(k, v), delete: (k) => void entries.delete(k) };
}

interface Sent {
  method: string;
  url: string;
  cookie?: string;
  ua?: string;
  form?: Record<string, string>;
}

function ctxWith(routes: Route[], opts: { guest?: ReturnType<typeof jar>; memo?: MemoryMemo; cookies?: string } = {}) {
  const sent: Sent[] = [];
  const guest = opts.guest ?? jar();
  const http = {
    request: async (req: HttpRequest): Promise<HttpResponse> => {
      const url = buildUrl(req.url, req.query);
      sent.push({ method: req.method ?? 'GET', url: url.toString(), cookie: req.headers?.Cookie, ua: req.headers?.['User-Agent'], form: req.form });
      const route = routes.find(([re]) => re.test(url.toString()));
      if (!route) throw new ReplayMiss(req.method ?? 'GET', url.toString());
      const answer = route[1](url, req);
      if (answer instanceof Error) throw answer;
      const body = Buffer.from(answer.body, 'utf8');
      return { status: answer.status ?? 200, url: url.toString(), redirects: [], headers: answer.headers ?? {}, body, text: () => answer.body, json: () => JSON.parse(answer.body) };
    },
  };
  const ctx = {
    platform: 'weibo',
    profile: 'default',
    http,
    session: { cookies: opts.cookies },
    memo: opts.memo ?? new MemoryMemo(),
    guest,
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warn: () => {},
  } as unknown as CrawlContext;
  const asked = (re: RegExp) => sent.filter((s) => re.test(s.url));
  return { ctx, sent, guest, asked };
}

const user = weibo.actions.user as CreatorAction;
const items = weibo.actions as unknown as { search: ItemsAction; detail: ItemsAction; posts: ItemsAction };
const trending = weibo.actions.trending as TrendsAction;

const M_PROFILE = /m\.weibo\.cn\/api\/container\/getIndex/;
const PC_PROFILE = /weibo\.com\/ajax\/profile\/info/;
const GENVISITOR = /passport\.weibo\.com\/visitor\/genvisitor/;
const INCARNATE = /passport\.weibo\.com\/visitor\/visitor\?a=incarnate/;
const profileInfo = recorded(resolve(SANDBOX, 'pc-user-profile-info-6279793937.har'));
const wall = (u: URL): Answer => ({
  status: 302,
  body: '',
  headers: { location: `https://passport.weibo.com/visitor/visitor?entry=miniblog&a=enter&url=${encodeURIComponent(u.toString())}&domain=weibo.com` },
});
/** Mints pairs sub-1, sub-2, … one per genvisitor call. */
function minter() {
  let n = 0;
  return [
    [GENVISITOR, () => ({ body: GEN({ tid: `tid-${++n}`, new_tid: true, confidence: 95 }) })],
    [INCARNATE, (u: URL) => ({ body: CROSS({ sub: `sub-${u.searchParams.get('t')!.slice(4)}`, subp: 'subp-x' }) })],
  ] as Route[];
}
/** weibo.com answers only requests carrying one of these SUB values. */
const pcAccepting = (...subs: string[]): Route => [
  PC_PROFILE,
  (u, req) => (subs.some((s) => req.headers?.Cookie?.includes(`SUB=${s}`)) ? { body: profileInfo } : wall(u)),
];
const mDown: Route = [M_PROFILE, () => ({ status: 502, body: '' })];

describe('visitor cookies on weibo.com', () => {
  it('are minted once on the wall, stored in the guest jar, and reused by later requests', async () => {
    const { ctx, sent, guest, asked } = ctxWith([mDown, pcAccepting('sub-1'), ...minter()]);
    expect((await user.run(ctx, { query: '6279793937' }))?.id).toBe('6279793937');
    expect((await user.run(ctx, { query: '6279793937' }))?.id).toBe('6279793937');
    expect(asked(GENVISITOR)).toHaveLength(1);
    expect(asked(INCARNATE)).toHaveLength(1);
    const gen = asked(GENVISITOR)[0];
    expect(gen.method).toBe('POST');
    expect(gen.form).toMatchObject({ cb: 'gen_callback' });
    expect(JSON.parse(gen.form!.fp)).toMatchObject({ browser: 'Chrome125,0,0,0' });
    const inc = new URL(asked(INCARNATE)[0].url);
    expect(Object.fromEntries(['t', 'w', 'c', 'cb', 'from'].map((k) => [k, inc.searchParams.get(k)]))).toEqual({ t: 'tid-1', w: '3', c: '095', cb: 'cross_domain', from: 'weibo' });
    expect(guest.entries.get(VISITOR_KEY)).toEqual({ sub: 'sub-1', subp: 'subp-x' });
    const pc = asked(PC_PROFILE);
    expect(pc.map((s) => s.cookie)).toEqual([undefined, 'SUB=sub-1; SUBP=subp-x', 'SUB=sub-1; SUBP=subp-x']);
    // The pair goes out with the agent it was minted with (the jar's).
    expect(pc[1].ua).toBe(UA);
    // m.weibo.cn never carries them.
    expect(sent.filter((s) => /m\.weibo\.cn/.test(s.url)).every((s) => s.cookie === undefined)).toBe(true);
  });

  it('a pair kept in the jar goes out on the first request, with no mint', async () => {
    const guest = jar();
    guest.set(VISITOR_KEY, { sub: 'kept', subp: 'kept-p' });
    const { ctx, asked } = ctxWith([mDown, pcAccepting('kept'), ...minter()], { guest });
    expect((await user.run(ctx, { query: '6279793937' }))?.id).toBe('6279793937');
    expect(asked(GENVISITOR)).toHaveLength(0);
    expect(asked(PC_PROFILE).map((s) => s.cookie)).toEqual(['SUB=kept; SUBP=kept-p']);
  });

  it('a wall after minting: the stored pair is dropped, a new one minted once, and the request succeeds', async () => {
    let accepted = 'sub-1';
    const { ctx, guest, asked } = ctxWith([mDown, [PC_PROFILE, (u, req) => (req.headers?.Cookie?.includes(`SUB=${accepted}`) ? { body: profileInfo } : wall(u))], ...minter()]);
    await user.run(ctx, { query: '6279793937' });
    accepted = 'sub-2'; // weibo stops honouring the first pair
    expect((await user.run(ctx, { query: '6279793937' }))?.id).toBe('6279793937');
    expect(asked(GENVISITOR)).toHaveLength(2);
    expect(asked(PC_PROFILE).map((s) => s.cookie)).toEqual([undefined, 'SUB=sub-1; SUBP=subp-x', 'SUB=sub-1; SUBP=subp-x', 'SUB=sub-2; SUBP=subp-x']);
    expect(guest.entries.get(VISITOR_KEY)).toEqual({ sub: 'sub-2', subp: 'subp-x' });
  });

  it('a wall that stays after a fresh mint is session_expired: one mint, one retry', async () => {
    const { ctx, asked } = ctxWith([mDown, [PC_PROFILE, wall], ...minter()]);
    const err = await user.run(ctx, { query: '6279793937' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionExpired);
    expect((err as Error).message).toMatch(/passport.*freshly minted/);
    expect(asked(GENVISITOR)).toHaveLength(1);
    expect(asked(PC_PROFILE)).toHaveLength(2);
  });

  it.each<[string, Route[]]>([
    ['genvisitor HTTP 500', [[GENVISITOR, () => ({ status: 500, body: '' })]]],
    ['genvisitor without a tid', [[GENVISITOR, () => ({ body: GEN({}) })]]],
    ['incarnate without a sub', [[GENVISITOR, () => ({ body: GEN({ tid: 't' }) })], [INCARNATE, () => ({ body: CROSS({}) })]]],
    ['no answer at all (replay miss)', []],
  ])('a failed mint (%s) is session_expired, never an empty result, and is not retried per request', async (_name, mintRoutes) => {
    const { ctx, guest, asked } = ctxWith([mDown, pcAccepting('never'), ...mintRoutes]);
    const err = await user.run(ctx, { query: '6279793937' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionExpired);
    expect((err as Error).message).toMatch(/could not mint visitor cookies/);
    expect(guest.entries.has(VISITOR_KEY)).toBe(false);
    await expect(user.run(ctx, { query: '6279793937' })).rejects.toThrow(SessionExpired);
    expect(asked(GENVISITOR)).toHaveLength(1);
  });

  it("a profile with its own SUB (a login) never mints: weibo.com's wall is its session_expired", async () => {
    const { ctx, asked } = ctxWith([mDown, [PC_PROFILE, wall], ...minter()], { cookies: 'SUB=login; SUBP=loginp' });
    await expect(user.run(ctx, { query: '6279793937' })).rejects.toThrow(SessionExpired);
    expect(asked(GENVISITOR)).toHaveLength(0);
  });

  it('a redirect to the sign-in page (not the visitor wall) does not mint', async () => {
    const { ctx, asked } = ctxWith([
      mDown,
      [PC_PROFILE, (u) => ({ status: 302, body: '', headers: { location: `https://passport.weibo.com/sso/signin?url=${encodeURIComponent(u.toString())}` } })],
      ...minter(),
    ]);
    await expect(user.run(ctx, { query: '6279793937' })).rejects.toThrow(SessionExpired);
    expect(asked(GENVISITOR)).toHaveLength(0);
  });
});

describe('visitor cookies on s.weibo.com', () => {
  const visitorPage = recorded(resolve(FIXTURES, 'error-visitor-system-s-weibo-2024-01.har'));
  const summary = recorded(resolve(FIXTURES, 'trending-s-weibo-top-summary-realtimehot-2021-09-22.har'));

  it("the Sina Visitor System page: mint, retry with the pair, read the board", async () => {
    const { ctx, asked } = ctxWith([
      [/m\.weibo\.cn/, () => ({ status: 502, body: '' })],
      [/weibo\.com\/ajax\/side\/hotSearch/, () => ({ status: 502, body: '' })],
      [/s\.weibo\.com\/top\/summary/, (_u, req) => (req.headers?.Cookie?.includes('SUB=sub-1') ? { body: summary } : { body: visitorPage, headers: { 'content-type': 'text/html' } })],
      ...minter(),
    ]);
    const trends = await trending.run(ctx, {});
    expect(trends.length).toBeGreaterThan(10);
    expect(asked(GENVISITOR)).toHaveLength(1);
    const s = asked(/s\.weibo\.com/);
    expect(s.map((x) => x.cookie)).toEqual([undefined, 'SUB=sub-1; SUBP=subp-x']);
    // s.weibo.com keeps the mobile agent its board parsers read.
    expect(s[1].ua).toMatch(/iPhone/);
  });
});

describe('m.weibo.cn never mints', () => {
  it('its login wall, its visitor page and its ordinary answers go out and come back without visitor cookies', async () => {
    const { ctx, sent, asked } = ctxWith([
      [/statuses\/show/, () => ({ body: '<html><title>Sina Visitor System</title></html>', headers: { 'content-type': 'text/html' } })],
      [/m\.weibo\.cn\/detail\//, (u) => ({ status: 302, body: '', headers: { location: `https://passport.weibo.cn/signin/login?r=${encodeURIComponent(u.toString())}` } })],
      [/100103type%3D1/, () => ({ body: recorded(resolve(SANDBOX, 'search-arknights.har')) })],
      ...minter(),
    ]);
    await expect(items.detail.page(ctx, { query: '4645748019299849' })).rejects.toThrow(SessionExpired);
    expect((await items.search.page(ctx, { query: '明日方舟' })).items.length).toBeGreaterThan(0);
    expect(asked(/passport/)).toHaveLength(0);
    expect(sent.every((s) => s.cookie === undefined)).toBe(true);
  });
});
