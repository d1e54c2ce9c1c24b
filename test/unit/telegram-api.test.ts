import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { CrawlError, NotFound, RateLimited, ReplayMiss, UpstreamError } from '../../src/crawl/errors.js';
import { hostMatches, type HttpRequest, type HttpResponse } from '../../src/crawl/http.js';
import { compileRules } from '../../src/crawl/replay/match.js';
import { buildCatalog } from '../../src/platforms/catalog.js';
import { Registry } from '../../src/platforms/registry.js';
import { checkStatus, fetchPage, pageMismatch, readHistory, withFallback, type Fetched } from '../../src/platforms/telegram/api.js';
import { detailAction } from '../../src/platforms/telegram/detail.js';
import { userAction } from '../../src/platforms/telegram/creator.js';
import { telegram } from '../../src/platforms/telegram/index.js';
import { parseHistory } from '../../src/platforms/telegram/parse.js';
import type { CrawlContext, ItemsAction } from '../../src/platforms/types.js';
import { MemoryMemo } from '../../src/tasks/context.js';

const FIXTURES = resolve(process.cwd(), '../shared/fixtures/telegram');
const SANDBOX = resolve(process.cwd(), 'sandbox/telegram');
interface Entry {
  request: { url: string };
  response: { status: number; headers: Array<{ name: string; value: string }>; content: { text: string } };
}
const entries = (file: string): Entry[] => JSON.parse(readFileSync(file, 'utf8')).log.entries;
const recorded = (dir: string, file: string, i = 0): string => entries(resolve(dir, file))[i].response.content.text;

function response(status: number, body: string, url = 'https://t.me/s/durov', headers: Record<string, string> = {}): HttpResponse {
  const buf = Buffer.from(body, 'utf8');
  return { status, url, redirects: [], headers, body: buf, text: () => buf.toString('utf8'), json: () => JSON.parse(buf.toString('utf8')) };
}

/** A recorded entry as the HttpClient would hand it over. */
function fromEntry(e: Entry): HttpResponse {
  const headers: Record<string, string> = {};
  for (const h of e.response.headers) headers[h.name.toLowerCase()] = h.value;
  return response(e.response.status, e.response.content.text, e.request.url, headers);
}

/** A context whose http answers from a queue and records what was asked. */
function fakeCtx(answers: Array<(req: HttpRequest) => HttpResponse>): { ctx: CrawlContext; asked: string[]; warnings: string[] } {
  const asked: string[] = [];
  const warnings: string[] = [];
  const http = {
    request: async (req: HttpRequest) => {
      const u = new URL(req.url);
      for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined && v !== null) u.searchParams.set(k, String(v));
      asked.push(u.toString());
      const next = answers.shift();
      if (!next) throw new ReplayMiss('GET', u.toString());
      return next(req);
    },
  };
  const ctx = {
    platform: 'telegram',
    profile: 'default',
    http,
    session: {},
    memo: new MemoryMemo(),
    signal: new AbortController().signal,
    log: pino({ level: 'silent' }),
    warn: (m: string) => warnings.push(m),
  } as unknown as CrawlContext;
  return { ctx, asked, warnings };
}

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof CrawlError ? e.code : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};
const asyncCodeOf = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    return e instanceof CrawlError ? e.code : e instanceof ReplayMiss ? 'replay_miss' : `not a crawl error: ${String(e)}`;
  }
  return 'no error';
};
const page = (html: string): Fetched => ({ kind: 'page', url: 'https://t.me/s/x', html });

describe('HTTP outcomes (checkStatus)', () => {
  it('maps statuses to typed errors', () => {
    expect(codeOf(() => checkStatus(response(200, '')))).toBe('no error');
    expect(codeOf(() => checkStatus(response(404, '')))).toBe('not_found');
    expect(codeOf(() => checkStatus(response(403, '')))).toBe('blocked');
    expect(codeOf(() => checkStatus(response(500, '')))).toBe('upstream_error');
    expect(codeOf(() => checkStatus(response(400, '')))).toBe('upstream_error');
  });

  it('the recorded 429 is rate_limited with its Retry-After', () => {
    const [e] = entries(resolve(SANDBOX, 'error-posts-busyharbor-429.har'));
    try {
      checkStatus(fromEntry(e));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(RateLimited);
      expect((err as RateLimited).retryAfterS).toBe(30);
    }
  });
});

describe('redirects (fetchPage)', () => {
  it('/s/<name> → t.me/<name> is handed back as moved, nothing more is requested', async () => {
    const [e] = entries(resolve(SANDBOX, 'user-channel-quietharbor-no-preview.har'));
    const { ctx, asked } = fakeCtx([() => fromEntry(e)]);
    const got = await fetchPage(ctx, 'https://t.me/s/quietharbor');
    expect(got).toMatchObject({ kind: 'moved', from: 'https://t.me/s/quietharbor' });
    expect(got.kind === 'moved' && got.to.toString()).toBe('https://t.me/quietharbor');
    expect(asked).toEqual(['https://t.me/s/quietharbor']);
  });

  it('a hop that stays on /s/ (the username spelled canonically) is followed', async () => {
    const { ctx, asked } = fakeCtx([
      () => response(301, '', 'https://t.me/s/Durov', { location: '/s/durov' }),
      () => response(200, '<section class="tgme_channel_history"></section>', 'https://t.me/s/durov'),
    ]);
    expect(await fetchPage(ctx, 'https://t.me/s/Durov')).toMatchObject({ kind: 'page', url: 'https://t.me/s/durov' });
    expect(asked).toEqual(['https://t.me/s/Durov', 'https://t.me/s/durov']);
  });

  it('off-site, Location-less and endless redirects are upstream errors', async () => {
    const away = fakeCtx([() => response(302, '', 'https://t.me/s/x', { location: 'https://example.com/' })]);
    expect(await asyncCodeOf(fetchPage(away.ctx, 'https://t.me/s/x'))).toBe('upstream_error');
    const bare = fakeCtx([() => response(302, '', 'https://t.me/s/x')]);
    expect(await asyncCodeOf(fetchPage(bare.ctx, 'https://t.me/s/x'))).toBe('upstream_error');
    const loop = fakeCtx(Array.from({ length: 6 }, () => () => response(302, '', 'https://t.me/s/x', { location: '/s/x' })));
    expect(await asyncCodeOf(fetchPage(loop.ctx, 'https://t.me/s/x'))).toBe('upstream_error');
  });
});

describe('what a history page means (readHistory)', () => {
  it('the real page is content', () => {
    expect(readHistory(page(recorded(FIXTURES, 'posts-channel-topwar_official-before-71009.har')), 'topwar_official', { search: false }).messages).toHaveLength(12);
  });

  it('no public preview is not_found', () => {
    expect(codeOf(() => readHistory({ kind: 'moved', from: 'https://t.me/s/x', to: new URL('https://t.me/x') }, 'x', { search: false }))).toBe('not_found');
  });

  it('"No posts found" is an empty search but a throttled history', () => {
    const searchEmpty = recorded(SANDBOX, 'search-harborweather-tsunami-empty.har');
    expect(readHistory(page(searchEmpty), 'harborweather', { search: true }).messages).toEqual([]);
    const throttled = recorded(SANDBOX, 'error-posts-stormdesk-no-posts-found-throttle.har');
    expect(codeOf(() => readHistory(page(throttled), 'stormdesk', { search: false }))).toBe('rate_limited');
  });

  it('a history section with no message at all is an honest empty channel', () => {
    const html = '<div class="tgme_channel_info"></div><section class="tgme_channel_history js-message_history"></section>';
    expect(readHistory(page(html), 'x', { search: false }).messages).toEqual([]);
  });

  it('a header or a card without any history section is a channel without public preview', () => {
    expect(codeOf(() => readHistory(page('<div class="tgme_channel_info"><div class="tgme_channel_info_header_title">X</div></div>'), 'x', { search: false }))).toBe('not_found');
    expect(codeOf(() => readHistory(page('<div class="tgme_page"><div class="tgme_page_title">X</div></div>'), 'x', { search: false }))).toBe('not_found');
  });

  it('a page that is not t.me, or a t.me page of no known kind, is upstream_error', () => {
    expect(codeOf(() => readHistory(page('<html><body>502 Bad Gateway</body></html>'), 'x', { search: false }))).toBe('upstream_error');
    expect(codeOf(() => readHistory(page('<div class="tgme_widget_message_centered"></div>'), 'x', { search: false }))).toBe('upstream_error');
  });
});

describe('refusing another page than the one asked for (pageMismatch)', () => {
  const newest = parseHistory(recorded(FIXTURES, 'posts-channel-topwar_official-before-71009.har'));
  const older = parseHistory(recorded(SANDBOX, 'posts-channel-harborweather-2-before-201.har'));

  it('a ?before= page must hold older messages', () => {
    expect(pageMismatch(newest, '71009')).toBeUndefined();
    expect(pageMismatch(newest, '71000')).toBeUndefined();
    expect(pageMismatch(newest, '70989')).toMatch(/before 70989, got 70989…71008/);
  });

  it('the newest page must not link to newer messages', () => {
    expect(pageMismatch(newest, undefined)).toBeUndefined();
    expect(pageMismatch(older, undefined)).toMatch(/newer/);
    expect(pageMismatch(older, '201')).toBeUndefined();
  });
});

describe('fallback between routes (withFallback)', () => {
  const miss = (n: number) => new ReplayMiss('GET', `https://t.me/${n}`);

  it('uses the first answer, falls back on undefined and non-terminal errors only', async () => {
    expect(await withFallback(async () => 1, async () => 2)).toBe(1);
    expect(await withFallback(async () => undefined, async () => 2)).toBe(2);
    expect(await withFallback(async () => { throw new UpstreamError('x'); }, async () => 2)).toBe(2);
    expect(await withFallback(async () => { throw miss(1); }, async () => 2)).toBe(2);
    await expect(withFallback(async () => { throw new NotFound('gone'); }, async () => 2)).rejects.toBeInstanceOf(NotFound);
  });

  it('when the fallback cannot be replayed either, the first failure is reported', async () => {
    const first = miss(1);
    await expect(withFallback(async () => { throw first; }, async () => { throw miss(2); })).rejects.toBe(first);
    const upstream = new UpstreamError('first route broke');
    await expect(withFallback(async () => { throw upstream; }, async () => { throw miss(2); })).rejects.toBe(upstream);
    await expect(withFallback(async () => undefined, async () => { throw miss(2); })).rejects.toBeInstanceOf(ReplayMiss);
  });
});

describe('detail outcomes', () => {
  const posts = recorded(FIXTURES, 'posts-channel-topwar_official-before-71009.har');
  const detail = detailAction as ItemsAction;

  it('a video t.me withholds is said in a warning', async () => {
    const { ctx, warnings } = fakeCtx([() => response(200, posts, 'https://t.me/s/topwar_official/71007')]);
    const { items } = await detail.page(ctx, { query: 'https://t.me/topwar_official/71007' });
    expect(items[0]).toMatchObject({ native_id: 'topwar_official/71007', type: 'video', media: [], duration_s: 101 });
    expect(warnings).toEqual(['telegram topwar_official/71007: t.me\'s web preview offers no stream for its video ("Media is too big"); the item has its cover and duration only']);
  });

  it('an album member is answered with its album', async () => {
    const { ctx } = fakeCtx([() => response(200, posts, 'https://t.me/s/topwar_official/70994')]);
    expect((await detail.page(ctx, { query: 't.me/topwar_official/70994' })).items[0].native_id).toBe('topwar_official/70992');
  });

  it('not on the page and the widget unrecorded: not_found, the page centres on the message', async () => {
    const { ctx, asked } = fakeCtx([() => response(200, posts, 'https://t.me/s/topwar_official/70991')]);
    expect(await asyncCodeOf(detail.page(ctx, { query: 't.me/topwar_official/70991' }))).toBe('not_found');
    expect(asked).toEqual(['https://t.me/s/topwar_official/70991', 'https://t.me/topwar_official/70991?embed=1']);
  });

  it('"No posts found" instead of the history, and the widget unreachable: rate_limited, not not_found', async () => {
    const throttled = recorded(SANDBOX, 'error-posts-stormdesk-no-posts-found-throttle.har');
    const { ctx, asked } = fakeCtx([() => response(200, throttled, 'https://t.me/s/stormdesk/5')]);
    expect(await asyncCodeOf(detail.page(ctx, { query: 'stormdesk/5' }))).toBe('rate_limited');
    expect(asked).toEqual(['https://t.me/s/stormdesk/5', 'https://t.me/stormdesk/5?embed=1']);
  });

  it('a page that is no history at all is not taken as "the message is gone"', async () => {
    const { ctx } = fakeCtx([() => response(200, '<div class="tgme_page"><div class="tgme_page_title">X</div></div>', 'https://t.me/s/durov/1')]);
    expect(await asyncCodeOf(detail.page(ctx, { query: 'durov/1' }))).toBe('upstream_error');
  });

  it('neither route recorded: the first replay miss', async () => {
    const { ctx } = fakeCtx([]);
    await expect(detail.page(ctx, { query: 't.me/durov/1' })).rejects.toMatchObject({ name: 'ReplayMiss', url: 'https://t.me/s/durov/1' });
  });

  it('the widget\'s "Post not found" is not_found', async () => {
    const [around, embed] = entries(resolve(SANDBOX, 'error-detail-harborweather-999-post-not-found.har'));
    const { ctx } = fakeCtx([() => fromEntry(around), () => fromEntry(embed)]);
    expect(await asyncCodeOf(detail.page(ctx, { query: 'harborweather/999' }))).toBe('not_found');
  });

  it('an HTTP 429 on the page is rate_limited, without trying the widget', async () => {
    const { ctx, asked } = fakeCtx([() => response(429, '', 'https://t.me/s/durov/1', { 'retry-after': '5' })]);
    expect(await asyncCodeOf(detail.page(ctx, { query: 'durov/1' }))).toBe('rate_limited');
    expect(asked).toHaveLength(1);
  });
});

describe('user outcomes', () => {
  const user = userAction;
  const moved = () => response(302, '', 'https://t.me/s/hiddenchan', { location: 'https://t.me/hiddenchan' });

  it('the /s/ redirect with the card unrecorded: not_found (no public preview), not a replay miss', async () => {
    const { ctx, asked } = fakeCtx([moved]);
    expect(await asyncCodeOf(user.run(ctx, { query: 'hiddenchan' }))).toBe('not_found');
    expect(asked).toEqual(['https://t.me/s/hiddenchan', 'https://t.me/hiddenchan']);
  });

  it('the /s/ redirect with the card answered: the card is the profile', async () => {
    const card = '<div class="tgme_page"><div class="tgme_page_title"><span dir="auto">Hidden</span></div><div class="tgme_page_extra">1 234 subscribers</div></div>';
    const { ctx } = fakeCtx([moved, () => response(200, card, 'https://t.me/hiddenchan')]);
    expect(await user.run(ctx, { query: 'hiddenchan' })).toMatchObject({ id: 'hiddenchan', name: 'Hidden', followers: 1234 });
  });

  it('a history page without a channel header and the card unrecorded stays a replay miss', async () => {
    const { ctx } = fakeCtx([() => response(200, '<section class="tgme_channel_history js-message_history"></section>', 'https://t.me/s/hiddenchan')]);
    expect(await asyncCodeOf(user.run(ctx, { query: 'hiddenchan' }))).toBe('replay_miss');
  });
});

describe('adapter metadata', () => {
  it('is registered with exactly the actions it can honestly do', () => {
    const registry = new Registry();
    expect(registry.get('telegram')).toBe(telegram);
    expect(registry.forHost('t.me')).toBe(telegram);
    const names = buildCatalog(registry).entries.filter((e) => e.group === 'telegram').map((e) => e.name).sort();
    expect(names).toEqual(['telegram.detail', 'telegram.download', 'telegram.posts', 'telegram.search', 'telegram.user']);
    expect(telegram.authorUrl({ handle: 'durov' })).toBe('https://t.me/durov');
    expect(telegram.authorUrl({})).toBeUndefined();
    expect(telegram.mediaHeaders!(new URL('https://cdn4.telegram-cdn.org/file/x.jpg'))).toEqual({ Referer: 'https://t.me/' });
  });

  it('the media allowlist covers every CDN URL in every recording', () => {
    const files = [
      ...readdirSync(FIXTURES).filter((f) => f.endsWith('.har')).map((f) => resolve(FIXTURES, f)),
      ...readdirSync(SANDBOX).filter((f) => f.endsWith('.har')).map((f) => resolve(SANDBOX, f)),
    ];
    const hosts = new Set<string>();
    for (const f of files) {
      for (const e of entries(f)) {
        for (const m of e.response.content.text.matchAll(/https?:\/\/([a-z0-9.-]+)\/file\//gi)) hosts.add(m[1].toLowerCase());
      }
    }
    expect([...hosts].sort()).toEqual(['cdn1.telesco.pe', 'cdn4.telegram-cdn.org', 'cdn5.cdn-telegram.org']);
    for (const h of hosts) expect(hostMatches(h, telegram.mediaHosts)).toBe(true);
    expect(hostMatches('t.me', telegram.mediaHosts)).toBe(false);
    expect(hostMatches('evil-telegram-cdn.org', telegram.mediaHosts)).toBe(false);
  });

  it('replay rules: before is ignored (pages are told apart by pageMismatch), q must match or be absent on both sides', () => {
    const rules = compileRules(telegram.replay);
    expect(rules.volatile.has('before')).toBe(true);
    expect(rules.cursor.has('before')).toBe(false);
    expect(rules.cursor.has('q')).toBe(true);
    expect(rules.identifying.has('q')).toBe(false);
  });
});
