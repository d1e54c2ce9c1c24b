import { firstAnswering } from '../../crawl/fallback.js';
import { createHash, randomBytes } from 'node:crypto';
import {
  Blocked,
  CrawlError,
  NotFound,
  ParseError,
  RateLimited,
  SessionExpired,
  UpstreamError,
  isReplayMiss,
} from '../../crawl/errors.js';
import { throwForStatus, type HttpResponse } from '../../crawl/http.js';
import type { CrawlContext } from '../types.js';
import { WEB_ORIGIN } from './refs.js';
import { arr, dig, findFirst, obj, str, text, type Json } from './text.js';

/*
 * InnerTube (youtubei/v1) transport: client contexts, headers, and every outcome YouTube answers mapped to a
 * typed error here, in one place. Client names, versions and body shapes are those of the recorded requests
 * (NewPipeExtractor, 2026): WEB for search/browse/next/resolve, ANDROID reel_item_watch and VISIONOS player for
 * playable streams.
 */

export const GAPIS_ORIGIN = 'https://youtubei.googleapis.com';

export type ClientName = 'WEB' | 'ANDROID' | 'VISIONOS';

interface ClientInfo {
  version: string;
  userAgent: string;
  /** X-YouTube-Client-Name (WEB only sends it). */
  id?: string;
}

export const CLIENTS: Record<ClientName, ClientInfo> = {
  WEB: {
    version: '2.20260519.10.00',
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/137.0.0.0 Safari/537.36',
    id: '1',
  },
  ANDROID: { version: '21.03.36', userAgent: 'com.google.android.youtube/21.03.36 (Linux; U; Android 15; GB) gzip' },
  VISIONOS: {
    version: '1.02',
    userAgent: 'com.google.visionos.youtube/1.02(RealityDevice14,1; U; CPU visionOS 25_6_0 like Mac OS X; GB)',
  },
};

const LOCALE = { hl: 'en-GB', gl: 'GB' };

/** The `context` object of a request body, key for key as the recorded clients send it. */
export function innertubeContext(client: ClientName, opts: { visitorData?: string; watch?: boolean } = {}): Json {
  const common = { request: { internalExperimentFlags: [], useSsl: true }, user: { lockedSafetyMode: false } };
  const v = opts.visitorData ? { visitorData: opts.visitorData } : {};
  switch (client) {
    case 'WEB':
      // The watch-screen WEB requests (visitor_id, metadata player) carry clientScreen instead of originalUrl.
      return opts.watch
        ? { client: { clientName: 'WEB', clientVersion: CLIENTS.WEB.version, clientScreen: 'WATCH', platform: 'DESKTOP', ...v, ...LOCALE, utcOffsetMinutes: 0 }, ...common }
        : { client: { ...LOCALE, clientName: 'WEB', clientVersion: CLIENTS.WEB.version, originalUrl: WEB_ORIGIN, platform: 'DESKTOP', ...v, utcOffsetMinutes: 0 }, ...common };
    case 'ANDROID':
      return {
        client: {
          clientName: 'ANDROID', clientVersion: CLIENTS.ANDROID.version, clientScreen: 'WATCH', platform: 'MOBILE', ...v,
          osName: 'Android', osVersion: '16', androidSdkVersion: 36, ...LOCALE, utcOffsetMinutes: 0,
        },
        ...common,
      };
    case 'VISIONOS':
      return {
        client: {
          clientName: 'VISIONOS', clientVersion: CLIENTS.VISIONOS.version, clientScreen: 'WATCH', platform: 'MOBILE', ...v,
          deviceMake: 'Apple', deviceModel: 'RealityDevice14,1', osName: 'visionOS', osVersion: '25.6.0.23O471', ...LOCALE, utcOffsetMinutes: 0,
        },
        ...common,
      };
  }
}

export function clientHeaders(client: ClientName): Record<string, string> {
  const c = CLIENTS[client];
  if (client === 'WEB') {
    return {
      'User-Agent': c.userAgent,
      Referer: WEB_ORIGIN,
      Origin: WEB_ORIGIN,
      'X-YouTube-Client-Version': c.version,
      'X-YouTube-Client-Name': c.id ?? '1',
    };
  }
  return { 'User-Agent': c.userAgent };
}

/** Random token of YouTube's URL-safe alphabet (the `t` query param, the client playback nonce). */
export function nonce(length: number): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

/**
 * SAPISIDHASH: a signed-in web session proves itself with
 * `SAPISIDHASH <ts>_<sha1("<ts> <SAPISID> <origin>")>` next to its cookies.
 */
export function sapisidHash(sapisid: string, origin: string, tsSeconds: number): string {
  return `SAPISIDHASH ${tsSeconds}_${sha1Hex(`${tsSeconds} ${sapisid} ${origin}`)}`;
}

export const sha1Hex = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex');

/** The SAPISID value of a Cookie header (the __Secure-3PAPISID twin carries the same secret). */
export function sapisidFrom(cookies: string | undefined): string | undefined {
  if (!cookies) return undefined;
  const jar = new Map<string, string>();
  for (const part of cookies.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) jar.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return jar.get('SAPISID') || jar.get('__Secure-3PAPISID') || undefined;
}

export interface CallOptions {
  client: ClientName;
  /** Path under /youtubei/v1/, e.g. "browse", "reel/reel_item_watch". */
  endpoint: string;
  /** youtubei.googleapis.com (mobile clients) instead of www.youtube.com. */
  gapis?: boolean;
  /** Extra query, appended verbatim after prettyPrint=false (the `$fields` mask must stay unescaped). */
  query?: string;
  /** Body fields next to `context`. */
  body: Json;
  /** Context variant and visitor id. */
  context?: { visitorData?: string; watch?: boolean };
  /** Names the request in errors. */
  what: string;
}

export interface Answer {
  body: Json;
  res: HttpResponse;
}

/** One InnerTube call; any answer that is not usable JSON becomes a typed error. */
export async function call(ctx: CrawlContext, o: CallOptions): Promise<Answer> {
  const url = `${o.gapis ? GAPIS_ORIGIN : WEB_ORIGIN}/youtubei/v1/${o.endpoint}?prettyPrint=false${o.query ? `&${o.query}` : ''}`;
  const headers: Record<string, string> = { ...clientHeaders(o.client), 'Content-Type': 'application/json' };
  const sapisid = o.client === 'WEB' && !o.gapis ? sapisidFrom(ctx.session.cookies) : undefined;
  if (sapisid) {
    headers.Authorization = sapisidHash(sapisid, WEB_ORIGIN, Math.floor(Date.now() / 1000));
    headers['X-Origin'] = WEB_ORIGIN;
    headers['X-Goog-AuthUser'] = '0';
  }
  // Without a stored login, the consent cookie NewPipe sends keeps EU sessions off the cookie-consent wall
  // (a stored profile's own cookies replace it).
  if (!o.gapis && !ctx.session.cookies) headers.Cookie = 'SOCS=CAE=';
  const res = await ctx.http.request({
    method: 'POST',
    url,
    headers,
    json: { context: innertubeContext(o.client, o.context), ...o.body },
  });
  if (/^consent\./i.test(new URL(res.url).hostname)) {
    throw new UpstreamError(`${o.what}: YouTube redirected to its cookie-consent page instead of answering`);
  }
  const body = readAnswer(res, o.what);
  if (sapisid && dig(body, 'responseContext', 'mainAppWebResponseContext', 'loggedOut') === true) {
    throw new SessionExpired(`${o.what}: YouTube treated the stored youtube session as logged out (its cookies have lapsed); re-login the profile`);
  }
  return { body, res };
}

const SORRY = /google\.com\/sorry|unusual traffic|detected unusual|captcha/i;

/** HTTP status and body → JSON object, or the typed error YouTube meant. */
export function readAnswer(res: HttpResponse, what: string): Json {
  const raw = res.text();
  let body: unknown;
  try {
    body = raw.trim() ? JSON.parse(raw) : undefined;
  } catch {
    body = undefined;
  }
  const err = obj(obj(body)?.error);
  if (res.status === 429) {
    const ra = Number(res.headers['retry-after']);
    throw new RateLimited(`${what}: YouTube answered HTTP 429 (too many requests)`, Number.isFinite(ra) ? ra : undefined);
  }
  if (res.status === 403 || (body === undefined && SORRY.test(raw))) {
    throw new Blocked(`${what}: YouTube refused the request (${res.status === 403 ? 'HTTP 403' : 'a captcha / "unusual traffic" page'})`);
  }
  if (res.status === 401) throw new SessionExpired(`${what}: YouTube answered HTTP 401: the stored youtube session is not accepted`);
  if (res.status === 404 || str(err?.status) === 'NOT_FOUND') {
    throw new NotFound(`${what}: YouTube says ${str(err?.message) ?? 'the requested entity was not found'} (HTTP ${res.status})`);
  }
  throwForStatus(res);
  if (res.status >= 400 || err) {
    // e.g. the retired FEtrending browse target: 400 INVALID_ARGUMENT "Request contains an invalid argument."
    const detail = err ? `${str(err.status) ?? str(err.code) ?? ''} ${str(err.message) ?? ''}`.trim() : `${res.body.length} bytes`;
    throw new UpstreamError(`${what}: YouTube rejected the request with HTTP ${res.status} (${detail})`);
  }
  const o = obj(body);
  if (!o) {
    throw new ParseError(`${what}: expected JSON from ${new URL(res.url).host}, got ${res.headers['content-type'] ?? 'no content type'} (${res.body.length} bytes)`);
  }
  return o;
}

/** When the answer was produced, for "… ago" texts: the Date header (recorded answers keep theirs). */
export function answeredAt(res: HttpResponse): number {
  const d = Date.parse(res.headers['date'] ?? '');
  return Number.isFinite(d) ? d : Date.now();
}

/**
 * A browse answer that is only an error alert (terminated / removed channel) → NotFound; a channel behind the
 * age gate ("Sign in to view this channel", channelAgeGateRenderer) → SessionExpired, as for age-restricted videos.
 */
export function checkAlerts(body: Json, what: string): void {
  const gate = obj(findFirst(body.contents, 'channelAgeGateRenderer'));
  if (gate) {
    const says = [text(gate.header), text(gate.mainText)].filter(Boolean).join(' — ');
    throw Object.assign(new SessionExpired(`${what}: YouTube says "${says || 'Sign in to view this channel'}": age-restricted; store a signed-in, age-verified youtube profile (cookies)`), { ageGate: true });
  }
  if (body.contents !== undefined) return;
  for (const a of arr(body.alerts)) {
    const alert = obj(obj(a)?.alertRenderer) ?? obj(obj(a)?.alertWithButtonRenderer);
    if (alert && str(alert.type) === 'ERROR') throw new NotFound(`${what}: YouTube says "${text(alert.text) ?? 'this page is unavailable'}"`);
  }
}

/** The player's verdict on a video, after the terminal cases were thrown. */
export type Playability = { playable: true } | { playable: false; reason: string };

const AGE_GATE = /confirm your age|age-restricted|inappropriate|age_verification_required|age_check_required/i;

/**
 * playabilityStatus → outcome. Terminal answers throw: a bot check or captcha is Blocked, an age gate (or any
 * other sign-in demand) SessionExpired, a removed / private / missing video NotFound, YouTube's "try again later"
 * throttle RateLimited. A video that exists but cannot be played here (live, premiere, region) is not playable.
 */
export function playability(pr: Json, what: string): Playability {
  const ps = obj(pr.playabilityStatus);
  if (!ps) return { playable: false, reason: 'YouTube answered without a playability status' };
  const status = str(ps.status) ?? '';
  const screen = obj(dig(ps, 'errorScreen', 'playerErrorMessageRenderer'));
  const reason = [...new Set([str(ps.reason), text(screen?.reason), text(screen?.subreason), ...arr(ps.messages).map(str)])]
    .filter((x): x is string => !!x?.trim())
    .map((x) => x.trim())
    .join(' — ');
  const says = `${what}: YouTube says ${status}${reason ? ` "${reason}"` : ''}`;
  if (dig(ps, 'errorScreen', 'playerCaptchaViewModel')) throw new Blocked(`${says} (a captcha challenge)`);
  if (/not a bot/i.test(reason)) throw new Blocked(`${says}: a bot check, not a missing login`);
  if (/content isn.t available, try again later/i.test(reason)) {
    throw new RateLimited(`${says}: YouTube rate-limits this session for up to an hour`, 3600);
  }
  if (status === 'OK') return { playable: true };
  if (AGE_GATE.test(`${status} ${reason}`) || ps.desktopLegacyAgeGateReason !== undefined) {
    throw new SessionExpired(`${says}: age-restricted; store a signed-in, age-verified youtube profile (cookies)`);
  }
  if (status === 'LOGIN_REQUIRED') {
    // A private video stays invisible whatever the login: it is gone for this service, not a lapsed session.
    if (/private/i.test(reason)) throw new NotFound(says);
    throw new SessionExpired(`${says}: a signed-in youtube profile is needed`);
  }
  if (status === 'ERROR') throw new NotFound(says);
  if (status === 'UNPLAYABLE' && !pr.videoDetails) throw new NotFound(says);
  return { playable: false, reason: reason || status };
}

/** An error after which an equivalent endpoint is worth trying. */
export function isFallbackable(e: unknown): boolean {
  return isReplayMiss(e) || (e instanceof CrawlError && e.code === 'upstream_error');
}

/** Equivalent routes in order, past non-terminal failures (see firstAnswering for what is reported). */
export function firstOf<T>(routes: Array<() => Promise<T>>): Promise<T> {
  return firstAnswering(routes, isFallbackable);
}

const VISITOR_TTL_MS = 3600_000;

/**
 * A visitor id for a client, as the recorded mobile/watch requests obtain it (visitor_id endpoint). Without one
 * YouTube still answers, only more suspiciously, so a failure here never fails the crawl.
 */
export async function visitorData(ctx: CrawlContext, client: ClientName, gapis: boolean): Promise<string | undefined> {
  const key = `visitor:${client}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  try {
    const { body } = await call(ctx, { client, endpoint: 'visitor_id', gapis, body: {}, context: { watch: true }, what: 'visitor_id' });
    const v = str(dig(body, 'responseContext', 'visitorData'));
    if (v) ctx.memo.set(key, v, VISITOR_TTL_MS);
    return v;
  } catch (e) {
    if (e instanceof CrawlError && (e.code === 'blocked' || e.code === 'rate_limited')) throw e;
    ctx.log.debug({ err: (e as Error).message }, 'youtube visitor_id failed; continuing without');
    return undefined;
  }
}

/** The visitor id a WEB answer hands out; continuations keep it so YouTube keeps serving the same feed. */
export const visitorOf = (body: Json): string | undefined => str(dig(body, 'responseContext', 'visitorData'));
