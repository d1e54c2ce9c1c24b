import { firstAnswering } from '../../crawl/fallback.js';
import { NotFound, ParseError, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext, ItemDraft, ItemsAction, Page, Params } from '../types.js';
import { apiGet, ENDPOINTS, igHeaders, isFallbackable, relayQuery } from './api.js';
import { guestTokens } from './guest.js';
import { loggedIn, readJson, readPage, type Json } from './outcomes.js';
import { mediaToDraft, nodeToDraft, obj, objs, postToDraft } from './parse.js';
import { postUrl, resolvePost, type PostKey } from './refs.js';
import { noting } from './routes.js';

const gated = (ctx: CrawlContext, key: PostKey, why: string): SessionExpired =>
  new SessionExpired(`post ${key.shortcode}: Instagram shows it to logged-in viewers only (${why}); store an instagram profile named "${ctx.profile}" with the sessionid and csrftoken cookies of a logged-in browser`);

/** REST media/<pk>/info/ with a login: items[0]. */
async function fromRest(ctx: CrawlContext, key: PostKey): Promise<ItemDraft> {
  const json = await apiGet(ctx, ENDPOINTS.mediaInfo(key.pk), {}, { what: `post ${key.shortcode}`, referer: postUrl(key.shortcode) });
  const draft = mediaToDraft(objs(json.items)[0]);
  if (!draft) throw new NotFound(`instagram post ${key.shortcode} is not available`);
  return draft;
}

/** The post page's older JSON view (?__a=1&__d=dis) with a login: the same items[] (or graphql.shortcode_media). */
async function fromPostJson(ctx: CrawlContext, key: PostKey): Promise<ItemDraft> {
  const json = await apiGet(ctx, ENDPOINTS.postJson(key.shortcode), { __a: '1', __d: 'dis' }, { what: `post ${key.shortcode} (JSON view)`, referer: postUrl(key.shortcode) });
  const draft = mediaToDraft(objs(json.items)[0]) ?? nodeToDraft(obj(obj(json.graphql)?.shortcode_media));
  if (!draft) throw new NotFound(`instagram post ${key.shortcode} is not available`);
  return draft;
}

interface Ruling {
  granted: boolean;
  /** title: description of a refusal ("Restricted Video: …"). */
  says: string;
}

/**
 * yt-dlp's warm-up before the logged-out post query: status ok grants the post (and lets the csrftoken
 * go along); anything else names why in title/description. A failed call grants nothing and says nothing.
 */
async function ruling(ctx: CrawlContext, key: PostKey): Promise<Ruling> {
  try {
    const guest = await guestTokens(ctx);
    const res = await ctx.http.request({
      url: `${ENDPOINTS.ruling}?${new URLSearchParams({ content_type: 'MEDIA', target_id: key.pk }).toString()}`,
      followRedirects: false,
      headers: { ...igHeaders(ctx, postUrl(key.shortcode), guest.csrftoken), cookie: guest.cookie, origin: 'https://www.instagram.com' },
    });
    const json = readJson(res, ctx, `post ${key.shortcode} (content ruling)`, undefined, true);
    const says = [json.title, json.description].filter((v): v is string => typeof v === 'string' && !!v.trim()).join(': ');
    return { granted: json.status === 'ok', says };
  } catch (e) {
    if (!isFallbackable(e)) throw e;
    return { granted: false, says: '' };
  }
}

/** The logged-out post query's data.xig_polaris_media.if_not_gated_logged_out (a media item). */
function polarisDraft(ctx: CrawlContext, key: PostKey, polaris: Json | undefined, rule?: Ruling): ItemDraft {
  const product = obj(polaris?.if_not_gated_logged_out);
  if (!product) {
    if (rule?.says && /restricted/i.test(rule.says)) throw gated(ctx, key, rule.says);
    if (key.private) throw gated(ctx, key, 'a private account\'s post: followers only');
    if (polaris) throw gated(ctx, key, rule?.says || 'no logged-out version of the post');
    throw new NotFound(`instagram post ${key.shortcode} does not exist or was removed${rule?.says ? ` (${rule.says})` : ''}`);
  }
  const draft = mediaToDraft(product);
  if (!draft) throw new ParseError(`post ${key.shortcode}: the post carries no id`);
  return draft;
}

async function fromPolaris(ctx: CrawlContext, key: PostKey): Promise<ItemDraft> {
  const rule = await ruling(ctx, key);
  if (!rule.granted && rule.says) ctx.warn(`Instagram does not grant post ${key.shortcode} to logged-out visitors (${rule.says})`);
  const json = await relayQuery(ctx, 'PolarisLoggedOutDesktopWWWPostRootContentQuery', { media_id: key.pk }, { what: `post ${key.shortcode}`, referer: postUrl(key.shortcode) });
  const data = obj(json.data);
  if (!data || !('xig_polaris_media' in data)) throw new ParseError(`post ${key.shortcode}: no xig_polaris_media in the answer`);
  const polaris = obj(data.xig_polaris_media);
  // An empty answer sends yt-dlp to the post page; only a ruling's refusal or a private code settles it here.
  if (!obj(polaris?.if_not_gated_logged_out) && !(rule.says && /restricted/i.test(rule.says)) && !key.private) {
    throw new UpstreamError(`post ${key.shortcode}: the logged-out post query answered no media`);
  }
  return polarisDraft(ctx, key, polaris, rule);
}

/** JSON of every `<script type="application/json" data-sjs>` on a page. */
export function sjsBlobs(html: string): unknown[] {
  const out: unknown[] = [];
  const re = /<script(?=[^>]*\btype=["']application\/json["'])(?=[^>]*\bdata-sjs)[^>]*>([\s\S]*?)<\/script>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    try {
      out.push(JSON.parse(m[1]!));
    } catch {
      /* a broken blob says nothing */
    }
  }
  return out;
}

/** Every value under `key`, anywhere in a blob. */
export function findKey(root: unknown, key: string, out: unknown[] = [], depth = 0): unknown[] {
  if (depth > 64 || !root || typeof root !== 'object') return out;
  if (Array.isArray(root)) {
    for (const v of root) findKey(v, key, out, depth + 1);
    return out;
  }
  const o = root as Json;
  if (key in o) out.push(o[key]);
  for (const v of Object.values(o)) findKey(v, key, out, depth + 1);
  return out;
}

/** The post page's Relay prefetch: xig_polaris_media (2026), else xdt_api__v1__media__shortcode__web_info.items[0]. */
async function fromPostPage(ctx: CrawlContext, key: PostKey): Promise<ItemDraft> {
  const what = `post page ${key.shortcode}`;
  const res = await ctx.http.request({ url: ENDPOINTS.postPage(key.shortcode), followRedirects: false, headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' } });
  const blobs = sjsBlobs(readPage(res, ctx, what));
  const polaris = blobs.flatMap((b) => findKey(b, 'xig_polaris_media')).map(obj).find((p) => p && ('if_not_gated_logged_out' in p || 'pk' in p));
  if (polaris) return polarisDraft(ctx, key, polaris);
  const item = blobs.flatMap((b) => findKey(b, 'xdt_api__v1__media__shortcode__web_info')).map((w) => objs(obj(w)?.items)[0]).find(Boolean);
  const draft = postToDraft(item);
  if (draft) return draft;
  throw new ParseError(`${what}: no post data on the page (${blobs.length} data blocks)`);
}

async function detailPage(ctx: CrawlContext, params: Params): Promise<Page<ItemDraft>> {
  const key = await resolvePost(ctx, params.query);
  const routes = loggedIn(ctx)
    ? [() => fromRest(ctx, key), () => fromPostJson(ctx, key)]
    : [() => noting(ctx, () => fromPolaris(ctx, key)), () => fromPostPage(ctx, key)];
  const draft = await firstAnswering(routes, isFallbackable);
  if (draft.type === 'video' && !draft.media?.some((m) => m.kind === 'video')) ctx.warn(`Instagram answered post ${key.shortcode} without a playable stream`);
  return { items: [draft] };
}

export const detailAction: ItemsAction = {
  shape: 'items',
  summary: 'One Instagram post with every carousel item, the best image rendition and the best video stream (anonymous through the logged-out post query; REST with a login)',
  params: [{ name: 'query', type: 'string', required: true, description: 'shortcode, numeric media id (or <pk>_<owner>), an instagram.com/p/, /reel/, /reels/, /tv/ or /share/ link, or instagr.am' }],
  page: detailPage,
};

