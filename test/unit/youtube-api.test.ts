import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Blocked, NotFound, ParseError, RateLimited, ReplayMiss, SessionExpired, UpstreamError, InvalidInput } from '../../src/crawl/errors.js';
import type { HttpResponse } from '../../src/crawl/http.js';
import {
  call,
  checkAlerts,
  firstOf,
  innertubeContext,
  nonce,
  playability,
  readAnswer,
  sapisidFrom,
  sapisidHash,
  sha1Hex,
} from '../../src/platforms/youtube/api.js';
import { channelOfToken, decodeYtCursor, encodeYtCursor } from '../../src/platforms/youtube/cursor.js';
import type { CrawlContext } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';
import { encodeCursor } from '../../src/tasks/cursor.js';
import { youtube } from '../../src/platforms/youtube/index.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/youtube');
const entry = (file: string, i = 0) => JSON.parse(readFileSync(resolve(FIXTURES, file), 'utf8')).log.entries[i];
const body = (file: string, i = 0): any => JSON.parse(entry(file, i).response.content.text);
const sent = (file: string, i = 0): any => JSON.parse(entry(file, i).request.postData.text);

function response(status: number, text: string, headers: Record<string, string> = {}, url = 'https://www.youtube.com/youtubei/v1/browse?prettyPrint=false'): HttpResponse {
  const buf = Buffer.from(text);
  return { status, url, redirects: [], headers: { 'content-type': 'application/json; charset=UTF-8', ...headers }, body: buf, text: () => text, json: () => JSON.parse(text) };
}
const recorded = (file: string, i = 0) => {
  const e = entry(file, i);
  return response(e.response.status, e.response.content.text, {}, e.request.url);
};

describe('youtube request shapes', () => {
  // clientVersion and visitorData change with every session; the replay rules ignore them too.
  const stable = (ctx: any) => {
    const { clientVersion: _v, visitorData: _d, ...client } = ctx.client;
    return { ...ctx, client };
  };

  it('builds the WEB context the recorded search/browse/next requests carry', () => {
    for (const [file, i] of [['search-videos-test.har', 0], ['posts-channel-videos-creativecommons.har', 0], ['comments-video-xaQJbozY_Is.har', 0], ['resolve-channel-url-creativecommons.har', 0]] as const) {
      expect(stable(innertubeContext('WEB'))).toEqual(stable(sent(file, i).context));
    }
  });

  it('builds the watch-screen WEB, ANDROID and VISIONOS contexts of the recorded player requests', () => {
    expect(stable(innertubeContext('WEB', { watch: true }))).toEqual(stable(sent('detail-watch-tjz2u2DiveM.har', 2).context));
    expect(stable(innertubeContext('WEB', { watch: true, visitorData: 'x' }))).toEqual(stable(sent('detail-watch-tjz2u2DiveM.har', 3).context));
    expect(stable(innertubeContext('ANDROID'))).toEqual(stable(sent('detail-watch-tjz2u2DiveM.har', 0).context));
    expect(stable(innertubeContext('ANDROID', { visitorData: 'x' }))).toEqual(stable(sent('error-private-video.har').context));
    expect(stable(innertubeContext('VISIONOS'))).toEqual(stable(sent('detail-player-tjz2u2DiveM.har', 0).context));
    expect(stable(innertubeContext('VISIONOS', { visitorData: 'x' }))).toEqual(stable(sent('detail-player-tjz2u2DiveM.har', 1).context));
  });

  it('nonces use the URL-safe alphabet at the requested length', () => {
    for (const n of [12, 16]) expect(nonce(n)).toMatch(new RegExp(`^[A-Za-z0-9_-]{${n}}$`));
    expect(nonce(16)).not.toBe(nonce(16));
  });
});

describe('youtube SAPISIDHASH', () => {
  it('SHA-1 matches the FIPS 180 test vectors', () => {
    expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(sha1Hex('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(sha1Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('84983e441c3bd26ebaae4aa1f95129e5e54670f1');
  });

  it('hashes "<ts> <SAPISID> <origin>" and prefixes the timestamp', () => {
    const h = sapisidHash('AbCdEf/GhIjKlMnOp', 'https://www.youtube.com', 1_700_000_000);
    expect(h).toBe(`SAPISIDHASH 1700000000_${sha1Hex('1700000000 AbCdEf/GhIjKlMnOp https://www.youtube.com')}`);
    expect(h).toMatch(/^SAPISIDHASH 1700000000_[0-9a-f]{40}$/);
  });

  it('finds SAPISID (or its __Secure-3PAPISID twin) in a Cookie header', () => {
    expect(sapisidFrom('PREF=f6=40; SAPISID=abc/def; SID=x')).toBe('abc/def');
    expect(sapisidFrom('__Secure-3PAPISID=zzz; SID=x')).toBe('zzz');
    expect(sapisidFrom('SID=x; HSID=y')).toBeUndefined();
    expect(sapisidFrom(undefined)).toBeUndefined();
  });
});

describe('youtube calls', () => {
  const fake = (cookies: string | undefined, answer: unknown) => {
    const seen: any[] = [];
    const ctx = {
      session: { cookies },
      memo: new MemoryMemo(),
      http: { request: async (req: any) => (seen.push(req), response(200, JSON.stringify(answer), {}, req.url)) },
    } as unknown as CrawlContext;
    return { ctx, seen };
  };

  it('anonymous WEB calls carry the consent cookie and the recorded WEB headers; mobile calls only their UA', async () => {
    const { ctx, seen } = fake(undefined, { responseContext: {} });
    await call(ctx, { client: 'WEB', endpoint: 'browse', body: { browseId: 'UCTwECeGqMZee77BjdoYtI2Q' }, what: 't' });
    expect(seen[0]).toMatchObject({ method: 'POST', url: 'https://www.youtube.com/youtubei/v1/browse?prettyPrint=false' });
    expect(seen[0].headers).toMatchObject({ Cookie: 'SOCS=CAE=', Origin: 'https://www.youtube.com', 'X-YouTube-Client-Name': '1' });
    expect(seen[0].headers.Authorization).toBeUndefined();
    expect(seen[0].json).toMatchObject({ browseId: 'UCTwECeGqMZee77BjdoYtI2Q', context: { client: { clientName: 'WEB' } } });
    await call(ctx, { client: 'ANDROID', gapis: true, endpoint: 'reel/reel_item_watch', query: 't=x&id=y&$fields=playerResponse', body: {}, what: 't' });
    expect(seen[1].url).toBe('https://youtubei.googleapis.com/youtubei/v1/reel/reel_item_watch?prettyPrint=false&t=x&id=y&$fields=playerResponse');
    expect(Object.keys(seen[1].headers).sort()).toEqual(['Content-Type', 'User-Agent']);
  });

  it('a stored signed-in session signs WEB calls; a logged-out answer to them is session_expired', async () => {
    const { ctx, seen } = fake('SID=a; SAPISID=secret/123', { responseContext: { mainAppWebResponseContext: { loggedOut: false } } });
    await call(ctx, { client: 'WEB', endpoint: 'next', body: {}, what: 't' });
    expect(seen[0].headers.Authorization).toMatch(/^SAPISIDHASH \d+_[0-9a-f]{40}$/);
    expect(seen[0].headers['X-Origin']).toBe('https://www.youtube.com');
    expect(seen[0].headers.Cookie).toBeUndefined();
    const lapsed = fake('SAPISID=secret/123', { responseContext: { mainAppWebResponseContext: { loggedOut: true } } });
    await expect(call(lapsed.ctx, { client: 'WEB', endpoint: 'next', body: {}, what: 't' })).rejects.toBeInstanceOf(SessionExpired);
  });
});

describe('youtube answers → outcomes', () => {
  it('a usable JSON answer is returned as is', () => {
    expect(readAnswer(recorded('resolve-channel-url-creativecommons.har'), 'resolve').endpoint).toBeDefined();
  });

  it('the retired FEtrending browse (recorded 400 INVALID_ARGUMENT) is an upstream error', () => {
    const e = (() => {
      try {
        readAnswer(recorded('error-trending-invalid-argument.har'), 'trending page');
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(UpstreamError);
    expect((e as Error).message).toMatch(/HTTP 400 \(INVALID_ARGUMENT Request contains an invalid argument\.\)/);
  });

  it('HTTP 429 is rate_limited with its Retry-After', () => {
    const r = response(429, '{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}', { 'retry-after': '120' });
    expect(() => readAnswer(r, 'search')).toThrow(RateLimited);
    try {
      readAnswer(r, 'search');
    } catch (e) {
      expect((e as RateLimited).retryAfterS).toBe(120);
    }
  });

  it('HTTP 403 and the google.com/sorry page are blocked, never empty', () => {
    expect(() => readAnswer(response(403, '{"error":{"code":403,"status":"PERMISSION_DENIED"}}'), 'browse')).toThrow(Blocked);
    const sorry = '<html><body>Our systems have detected unusual traffic from your computer network. <a href="https://www.google.com/sorry/index">';
    expect(() => readAnswer(response(200, sorry, { 'content-type': 'text/html' }), 'search')).toThrow(Blocked);
  });

  it('404 / NOT_FOUND is not_found, 401 session_expired, 5xx upstream, non-JSON a parse error', () => {
    expect(() => readAnswer(response(404, '{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}'), 'resolve')).toThrow(NotFound);
    expect(() => readAnswer(response(401, '{"error":{"code":401,"status":"UNAUTHENTICATED"}}'), 'browse')).toThrow(SessionExpired);
    expect(() => readAnswer(response(503, 'unavailable'), 'browse')).toThrow(UpstreamError);
    expect(() => readAnswer(response(200, '<html>hello</html>', { 'content-type': 'text/html' }), 'browse')).toThrow(ParseError);
  });

  it('a terminated channel (recorded ERROR alert, no contents) is not_found', () => {
    expect(() => checkAlerts(body('error-channel-terminated.har'), 'channel')).toThrow(/This channel was removed because it violated our Community Guidelines/);
    expect(() => checkAlerts(body('error-channel-terminated.har'), 'channel')).toThrow(NotFound);
    expect(() => checkAlerts(body('posts-channel-videos-creativecommons.har'), 'channel')).not.toThrow();
  });

  it('a channel behind the age gate (channelAgeGateRenderer in its only tab) is session_expired, not an unreadable answer', () => {
    // Hand-written: the shape a browse of an age-restricted channel answers to an anonymous client.
    const gated = {
      contents: {
        twoColumnBrowseResultsRenderer: {
          tabs: [{ tabRenderer: { selected: true, content: { sectionListRenderer: { contents: [{ channelAgeGateRenderer: {
            channelTitle: 'Some Distillery',
            header: { runs: [{ text: 'Sign in to view this channel' }] },
            mainText: { runs: [{ text: 'This channel may be inappropriate for some users. ' }, { text: 'Confirm your age by signing in.' }] },
          } }] } } } }],
        },
      },
    };
    expect(() => checkAlerts(gated, 'channel UCx')).toThrow(SessionExpired);
    expect(() => checkAlerts(gated, 'channel UCx')).toThrow(/Sign in to view this channel — This channel may be inappropriate/);
  });
});

describe('youtube playabilityStatus → outcomes', () => {
  const pr = (status: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ playabilityStatus: status, ...extra });

  it('recorded OK answers are playable', () => {
    expect(playability(body('detail-watch-tjz2u2DiveM.har', 1).playerResponse, 'v')).toEqual({ playable: true });
    expect(playability(body('detail-player-tjz2u2DiveM.har', 1), 'v')).toEqual({ playable: true });
  });

  it('the recorded private video (LOGIN_REQUIRED "This video is private") is not_found, not a lapsed login', () => {
    expect(() => playability(body('error-private-video.har').playerResponse, 'video 8VajtrESJzA')).toThrow(NotFound);
    expect(() => playability(body('error-private-video.har').playerResponse, 'video 8VajtrESJzA')).toThrow(/This video is private/);
  });

  it('the bot check and a captcha are blocked', () => {
    expect(() => playability(pr({ status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm you’re not a bot' }), 'v')).toThrow(Blocked);
    expect(() => playability(pr({ status: 'LOGIN_REQUIRED', reason: "Sign in to confirm you're not a bot" }), 'v')).toThrow(Blocked);
    expect(() => playability(pr({ status: 'LOGIN_REQUIRED', errorScreen: { playerCaptchaViewModel: {} } }), 'v')).toThrow(Blocked);
  });

  it('an age gate is session_expired', () => {
    expect(() => playability(pr({ status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm your age' }), 'v')).toThrow(SessionExpired);
    expect(() => playability(pr({ status: 'AGE_VERIFICATION_REQUIRED' }), 'v')).toThrow(SessionExpired);
    expect(() => playability(pr({ status: 'UNPLAYABLE', reason: 'This video may be inappropriate for some users.' }), 'v')).toThrow(SessionExpired);
    expect(() => playability(pr({ status: 'LOGIN_REQUIRED', reason: 'Sign in to view this content' }), 'v')).toThrow(SessionExpired);
  });

  it('ERROR ("Video unavailable") is not_found; the "try again later" throttle is rate_limited', () => {
    expect(() => playability(pr({ status: 'ERROR', reason: 'Video unavailable' }), 'v')).toThrow(NotFound);
    expect(() => playability(pr({ status: 'UNPLAYABLE', reason: "This content isn't available, try again later." }), 'v')).toThrow(RateLimited);
  });

  it('a video that exists but cannot play here is reported, not thrown', () => {
    expect(playability(pr({ status: 'LIVE_STREAM_OFFLINE', reason: 'Premieres in 2 days' }, { videoDetails: {} }), 'v')).toEqual({ playable: false, reason: 'Premieres in 2 days' });
    expect(playability(pr({ status: 'UNPLAYABLE', reason: 'Join this channel to get access to members-only content' }, { videoDetails: {} }), 'v')).toMatchObject({ playable: false });
    expect(() => playability(pr({ status: 'UNPLAYABLE', reason: 'Video unavailable' }), 'v')).toThrow(NotFound);
  });
});

describe('youtube route fallback', () => {
  const miss = (n: number) => new ReplayMiss('POST', `https://www.youtube.com/${n}`);

  it('moves on after replay misses and upstream errors, stops at a terminal answer', async () => {
    expect(await firstOf([() => Promise.reject(miss(1)), () => Promise.reject(new UpstreamError('x')), () => Promise.resolve('third')])).toBe('third');
    await expect(firstOf([() => Promise.reject(new Blocked('bot')), () => Promise.resolve('never')])).rejects.toBeInstanceOf(Blocked);
  });

  it('reports a real answer before a replay miss, and the first miss when all miss', async () => {
    await expect(firstOf([() => Promise.reject(miss(1)), () => Promise.reject(new UpstreamError('real')), () => Promise.reject(miss(3))])).rejects.toThrow('real');
    await expect(firstOf([() => Promise.reject(miss(1)), () => Promise.reject(miss(2))])).rejects.toThrow('https://www.youtube.com/1');
  });
});

describe('youtube cursor', () => {
  const ctx = () => ({ memo: new MemoryMemo() }) as unknown as CrawlContext;
  const owner = { id: 'UCTwECeGqMZee77BjdoYtI2Q', name: 'Creative Commons', handle: '@creativecommons' };

  it('small state travels inside the cursor', () => {
    const c = { t: 'Eg0SC3hhUUpib3pZX0lz', v: 'CgtwRlY4', a: owner };
    const s = encodeYtCursor(ctx(), c)!;
    expect(s).toMatch(/^yt1\./);
    expect(decodeYtCursor(ctx(), s)).toEqual(c);
    expect(encodeYtCursor(ctx(), undefined)).toBeUndefined();
  });

  it('keeps every cursor short enough for the 2048-character cursor param once the runner wraps it', () => {
    const recorded = sent('posts-channel-videos-creativecommons.har', 1).continuation as string; // 1.6k characters
    const longer = body('posts-channel-videos-creativecommons.har', 1).onResponseReceivedActions[0].appendContinuationItemsAction.continuationItems.at(-1)
      .continuationItemRenderer.continuationEndpoint.continuationCommand.token as string; // 4k characters
    const c = ctx();
    for (const t of [recorded, longer]) {
      const s = encodeYtCursor(c, { t, v: 'CgtwRlY4WTJqaTgyayjc1bvQBjIoCgJGUhIiEh4SHAsMDg8QERITFBUWFxgZGhscHR4fICEiIyQlJicgTw%3D%3D', a: owner })!;
      expect(encodeCursor({ c: s, s: 29 }).length).toBeLessThanOrEqual(2048);
      expect(decodeYtCursor(c, s)).toMatchObject({ t, a: owner });
    }
    // 1.6k: its deflated bytes fit, so the cursor stands alone (any process can continue it).
    const packed = encodeYtCursor(c, { t: recorded, a: owner })!;
    expect(packed).toMatch(/^ytz\./);
    expect(decodeYtCursor(ctx(), packed)).toEqual({ t: recorded, a: owner });
    // 4k: parked in the process memo; another process says it expired instead of guessing.
    const parked = encodeYtCursor(c, { t: longer })!;
    expect(parked).toMatch(/^ytm\.[0-9a-f]{24}$/);
    expect(() => decodeYtCursor(ctx(), parked)).toThrow(/expired/);
  });

  it('every token spelling comes back exactly, whichever form the cursor takes', () => {
    const spellings = (bytes: Uint8Array) => {
      const std = Buffer.from(bytes).toString('base64');
      const url = std.replace(/\+/g, '-').replace(/\//g, '_');
      return [std, url, url.replace(/=/g, '%3D'), url.replace(/=+$/, ''), std.replace(/=/g, '%3D')];
    };
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 3000 }), (bytes) => {
        const c = ctx();
        for (const t of spellings(bytes)) {
          const s = encodeYtCursor(c, { t })!;
          expect(s.length).toBeLessThanOrEqual(1500);
          expect(decodeYtCursor(c, s)).toEqual({ t });
        }
      }),
      { numRuns: 150 },
    );
  });

  it('takes a bare continuation token, rejects a damaged cursor', () => {
    expect(decodeYtCursor(ctx(), '4qmFsgLZCRIYVUNUd0VDZUdx')).toEqual({ t: '4qmFsgLZCRIYVUNUd0VDZUdx' });
    expect(() => decodeYtCursor(ctx(), 'yt1.!!!')).toThrow(InvalidInput);
    expect(decodeYtCursor(ctx(), undefined)).toBeUndefined();
  });

  it('a browse continuation names its channel', () => {
    expect(channelOfToken(sent('posts-channel-videos-creativecommons.har', 1).continuation)).toBe('UCTwECeGqMZee77BjdoYtI2Q');
    expect(channelOfToken(sent('search-videos-test.har', 1).continuation)).toBeUndefined();
  });
});

describe('youtube media proxy headers', () => {
  it('always sends the youtube Referer, and the issuing client\'s UA to googlevideo', () => {
    const h = (u: string) => youtube.mediaHeaders!(new URL(u));
    expect(h('https://i.ytimg.com/vi/tjz2u2DiveM/hqdefault.jpg')).toEqual({ Referer: 'https://www.youtube.com/' });
    expect(h('https://rr2---sn-25ge7nzd.googlevideo.com/videoplayback?itag=18&c=ANDROID')['User-Agent']).toMatch(/^com\.google\.android\.youtube\//);
    expect(h('https://rr3---sn-25glenlz.googlevideo.com/videoplayback?itag=135&c=VISIONOS')['User-Agent']).toMatch(/^com\.google\.visionos\.youtube\//);
    expect(h('https://rr3---sn-25glenlz.googlevideo.com/videoplayback/id/abc/itag/135/c/VISIONOS/file/seg.ts')['User-Agent']).toMatch(/^com\.google\.visionos\.youtube\//);
    expect(h('https://manifest.googlevideo.com/api/manifest/hls_variant/expire/1/file/index.m3u8')).toEqual({ Referer: 'https://www.youtube.com/' });
  });

  it('allows every CDN host the recordings use', () => {
    const allowed = (host: string) => youtube.mediaHosts.some((p) => (p.startsWith('.') ? host.endsWith(p) : host === p));
    for (const host of ['i.ytimg.com', 'i9.ytimg.com', 'yt3.ggpht.com', 'yt3.googleusercontent.com', 'rr2---sn-25ge7nzd.googlevideo.com']) expect(allowed(host)).toBe(true);
    expect(allowed('evil.example.com')).toBe(false);
  });
});
