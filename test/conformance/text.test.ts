import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/domain/results.js';
import { FIXTURES, runAction, SANDBOX } from '../helpers/run-action.js';

/**
 * Every items action of every adapter fills `text` from a recorded answer that carries a caption or
 * body. The expectation comes from the raw answers themselves: each item is matched to the raw object
 * that carries its id, and that object's caption field (if non-empty) must come out as the item's text.
 */
const fx = (p: string) => resolve(FIXTURES, p);
const sb = (p: string) => resolve(SANDBOX, p);
const MASTO_DEV = { credentials: { instance: 'http://localhost:3000', access_token: 'recorded-token-was-dropped' } };

const CASES: Array<{ source: string; action: string; params: Record<string, unknown>; replay: string[]; session?: { credentials?: Record<string, string> } }> = [
  { source: 'weibo', action: 'search', params: { query: '明日方舟' }, replay: [sb('weibo/search-arknights.har')] },
  { source: 'weibo', action: 'posts', params: { query: '6279793937', limit: 11 }, replay: [fx('weibo/posts-arknights-timeline.har')] },
  { source: 'weibo', action: 'detail', params: { query: 'HyZVegYAP' }, replay: [fx('weibo/detail-statuses-show-HyZVegYAP.har')] },
  { source: 'weibo', action: 'hot', params: { limit: 30 }, replay: [sb('weibo/hot-hotposts.har')] },
  { source: 'bilibili', action: 'search', params: { query: '火影忍者', limit: 20 }, replay: [fx('bilibili/search-video-huoying.har'), sb('bilibili/nav-wbi-keys.har')] },
  { source: 'bilibili', action: 'posts', params: { query: 'https://space.bilibili.com/53456', limit: 10 }, replay: [fx('bilibili/posts-space-arc-search-53456.har'), sb('bilibili/nav-wbi-keys.har')] },
  { source: 'bilibili', action: 'posts', params: { query: '946974', limit: 10 }, replay: [sb('bilibili/posts-arc-946974.har'), sb('bilibili/nav-wbi-keys.har')] },
  { source: 'bilibili', action: 'detail', params: { query: 'BV117411r7R1' }, replay: [fx('bilibili/detail-view-BV117411r7R1.har'), sb('bilibili/detail-playurl-BV117411r7R1.har')] },
  { source: 'bilibili', action: 'hot', params: { limit: 20 }, replay: [fx('bilibili/hot-popular-ps2-pn1.har'), sb('bilibili/nav-wbi-keys.har')] },
  { source: 'youtube', action: 'search', params: { query: 'test', limit: 15 }, replay: [fx('youtube/search-videos-test.har')] },
  { source: 'youtube', action: 'search', params: { query: 'sourdough bread', limit: 10 }, replay: [sb('youtube/search-sourdough-bread.har')] },
  { source: 'youtube', action: 'detail', params: { query: 'SbxKitchen1' }, replay: [sb('youtube/detail-SbxKitchen1.har')] },
  { source: 'reddit', action: 'search', params: { query: 'mechanical keyboard' }, replay: [sb('reddit/search-mechanical-keyboard.har')] },
  { source: 'reddit', action: 'posts', params: { query: 'u/keebsmith' }, replay: [sb('reddit/posts-user-keebsmith.har')] },
  { source: 'reddit', action: 'hot', params: { category: 'popular', limit: 100 }, replay: [fx('reddit/hot-popular.har')], session: { credentials: { client_id: 'x', client_secret: 'y' } } },
  { source: 'bluesky', action: 'posts', params: { query: 'did:plc:ys5aypbbeqmwn42edy5t3sho', limit: 30 }, replay: [fx('bluesky/posts-author-feed-mkbhd.har')] },
  { source: 'bluesky', action: 'recommended', params: { limit: 30 }, replay: [sb('bluesky/recommended-feed-discover.har')] },
  { source: 'mastodon', action: 'posts', params: { query: '117020565966271181', limit: 5 }, replay: [fx('mastodon/posts-account-statuses-paged.har')], session: MASTO_DEV },
  { source: 'mastodon', action: 'detail', params: { query: '117020583223442465' }, replay: [fx('mastodon/detail-status.har')], session: MASTO_DEV },
  { source: 'mastodon', action: 'hot', params: {}, replay: [sb('mastodon/hot-trends-statuses.har')] },
  { source: 'mastodon', action: 'recommended', params: { category: 'federated' }, replay: [sb('mastodon/recommended-public-timelines.har')] },
  { source: 'telegram', action: 'posts', params: { query: 'harborweather', limit: 10 }, replay: [sb('telegram/posts-channel-harborweather-1-newest.har')] },
];

const CAPTION_KEYS = ['text', 'selftext', 'description', 'desc', 'content', 'descriptionSnippet', 'detailedMetadataSnippets', 'shortDescription'];
const ID_KEYS = ['id', 'idstr', 'mid', 'bvid', 'videoId', 'uri', 'name'];

const plain = (v: unknown): string => {
  if (typeof v === 'string') return v.replace(/<[^>]+>/g, '').trim();
  if (Array.isArray(v)) return v.map(plain).join('');
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (o.runs) return plain(o.runs);
    if (o.snippetText) return plain(o.snippetText);
    if (typeof o.text === 'string') return plain(o.text);
    if (typeof o.simpleText === 'string') return o.simpleText;
  }
  return '';
};

/** Raw objects by every id-like value they carry, with their caption (bluesky keeps it in record.text). */
function rawCaptions(files: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown): void => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) return v.forEach(walk);
    const o = v as Record<string, unknown>;
    const ids = ID_KEYS.map((k) => o[k]).filter((x): x is string | number => typeof x === 'string' || typeof x === 'number').map(String);
    const record = o.record as Record<string, unknown> | undefined;
    const caption = plain(CAPTION_KEYS.map((k) => o[k]).find((x) => plain(x) !== '') ?? record?.text);
    for (const id of ids) {
      const key = id.split('/').pop()!.replace(/^t3_/, '');
      if (!out.has(key) || (caption && caption !== '-')) out.set(key, caption === '-' ? '' : caption);
    }
    Object.values(o).forEach(walk);
  };
  for (const f of files.flatMap((p) => (p.endsWith('.har') ? [p] : []))) {
    for (const e of JSON.parse(readFileSync(f, 'utf8')).log.entries) {
      try {
        walk(JSON.parse(e.response.content.text));
      } catch {
        /* HTML or binary */
      }
    }
  }
  return out;
}

describe('text is the caption or body wherever the answer has one', () => {
  for (const c of CASES) {
    it(`${c.source}.${c.action} ${JSON.stringify(c.params)}`, async () => {
      const { result } = await runAction({ source: c.source, action: c.action, params: c.params, replay: c.replay, session: c.session, replayMode: true });
      const env = result as Envelope;
      expect(env.error, JSON.stringify(env.error)).toBeUndefined();
      expect(env.items.length).toBeGreaterThan(0);
      if (c.source === 'telegram') {
        // HTML: every recorded message of this page has a text block.
        expect(env.items.every((i) => (i.text ?? '').length > 0)).toBe(true);
        return;
      }
      const raw = rawCaptions(c.replay);
      let judged = 0;
      for (const item of env.items) {
        const native = item.id.slice(item.id.indexOf(':') + 1).split('/').pop()!;
        const caption = raw.get(native);
        if (caption === undefined) continue;
        judged++;
        if (caption) expect(item.text, `${item.id}: the answer says ${JSON.stringify(caption.slice(0, 60))}`).toBeTruthy();
      }
      expect(judged, 'no item could be matched to its raw answer').toBeGreaterThan(0);
      expect(env.items.some((i) => i.text)).toBe(true);
    });
  }
});
