import { InvalidInput } from '../../crawl/errors.js';

/*
 * Reference forms (global-platforms.md §4; yt-dlp's FacebookIE URL pattern; the recorded redirects):
 * a post is a numeric or opaque pfbid… id, /<page>/posts/<id>, /permalink.php or /story.php?story_fbid=&id=,
 * /groups/<g>/permalink|posts/<id>, /photo.php?fbid= or /<page>/photos/<album>/<id>; a video is /watch/?v=,
 * /<page>/videos/[<slug>/]<id>, /video.php?v=, /reel/<id>; fb.watch/<code> and /share/(p|v|r)/<code> are
 * short links followed by their redirect. Any facebook.com host (www., m., mbasic., web., none) is accepted.
 * A page (for posts) is its handle, its numeric id, /profile.php?id=, /people/<name>/<id> or /groups/<g>.
 */
export type PostRef =
  | { kind: 'post'; id: string; page?: string }
  | { kind: 'story'; id: string; owner: string }
  | { kind: 'video'; id: string; page?: string }
  | { kind: 'photo'; id: string; path?: string }
  | { kind: 'group'; id: string; group: string }
  | { kind: 'short'; url: string };

export type PageRef = { kind: 'page'; page: string } | { kind: 'profile'; id: string } | { kind: 'group'; group: string };

export const WWW = 'https://www.facebook.com';

const NUMERIC_ID = /^\d{1,20}$/;
const OPAQUE_ID = /^pfbid[0-9A-Za-z]{10,80}$/;
/** Facebook usernames: letters, digits and dots (pages may also be addressed by their numeric id). */
const HANDLE = /^[A-Za-z0-9.]{1,80}$/;
const GROUP = /^[A-Za-z0-9._-]{1,100}$/;
const FB_HOST = /^(?:[a-z0-9-]+\.)*facebook\.com$/i;
const SHORT_HOSTS = ['fb.watch', 'www.fb.watch'];

/** First path segments that are facebook's own routes, never a page. */
const RESERVED = new Set([
  'watch', 'groups', 'story.php', 'permalink.php', 'photo.php', 'photo', 'video.php', 'video', 'profile.php', 'reel', 'reels', 'pages', 'pg', 'events',
  'login', 'login.php', 'home.php', 'hashtag', 'search', 'settings', 'people', 'share', 'sharer', 'sharer.php', 'plugins', 'marketplace', 'gaming',
  'stories', 'photos', 'videos', 'posts', 'help', 'policies', 'privacy', 'checkpoint', 'messages', 'notifications', 'friends', 'me', 'l.php',
  'page_content_list_view', 'ajax', 'comment', 'ufi', 'browse', 'media', 'a', 'dialog', 'business', 'ads', 'live', 'fundraisers', 'latest',
]);

export const isPostId = (s: string): boolean => NUMERIC_ID.test(s) || OPAQUE_ID.test(s);
const isHandle = (s: string): boolean => HANDLE.test(s) && !RESERVED.has(s.toLowerCase());

export function asUrl(input: string): URL | undefined {
  const found =
    /https?:\/\/[^\s"'<>]+/i.exec(input)?.[0] ??
    (/^(?:[a-z0-9-]+\.)*(?:facebook\.com|fb\.watch)(?:[/?#]|$)/i.test(input) ? `https://${input}` : undefined);
  if (!found) return undefined;
  try {
    return new URL(found);
  } catch {
    return undefined;
  }
}

export const isFacebookHost = (host: string): boolean => FB_HOST.test(host);

/** fb.watch/<code> and facebook.com/share/(p|v|r)/<code>: resolved by reading their redirect only. */
export function shortLink(url: URL): string | undefined {
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split('/').filter(Boolean);
  if (SHORT_HOSTS.includes(host) && parts.length === 1 && /^[A-Za-z0-9_-]{4,40}$/.test(parts[0]!)) return `https://fb.watch/${parts[0]}/`;
  if (FB_HOST.test(host) && parts[0] === 'share' && parts.length === 3 && /^[pvr]$/.test(parts[1]!) && /^[A-Za-z0-9_-]{4,40}$/.test(parts[2]!)) {
    return `${WWW}/share/${parts[1]}/${parts[2]}/`;
  }
  return undefined;
}

const param = (url: URL, ...names: string[]): string | undefined => {
  for (const n of names) {
    const v = url.searchParams.get(n);
    if (v) return v;
  }
  return undefined;
};

/** A post or video on a facebook.com URL, or undefined when the URL names none. */
export function postRefFromUrl(url: URL): Exclude<PostRef, { kind: 'short' }> | undefined {
  if (!FB_HOST.test(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  const first = (parts[0] ?? '').toLowerCase();
  if (first === 'story.php' || first === 'permalink.php') {
    const id = param(url, 'story_fbid');
    const owner = param(url, 'id');
    if (id && isPostId(id)) return owner && NUMERIC_ID.test(owner) ? { kind: 'story', id, owner } : { kind: 'post', id };
    return undefined;
  }
  if (first === 'watch' || first === 'video.php' || (first === 'video' && parts[1] === 'video.php')) {
    const v = param(url, 'v', 'video_id');
    return v && NUMERIC_ID.test(v) ? { kind: 'video', id: v } : undefined;
  }
  if ((first === 'reel' || first === 'reels') && parts[1] && NUMERIC_ID.test(parts[1])) return { kind: 'video', id: parts[1] };
  if (first === 'photo.php' || first === 'photo') {
    const id = param(url, 'fbid');
    return id && NUMERIC_ID.test(id) ? { kind: 'photo', id } : undefined;
  }
  if (first === 'groups' && parts[1] && GROUP.test(parts[1]) && (parts[2] === 'permalink' || parts[2] === 'posts') && parts[3] && isPostId(parts[3])) {
    return { kind: 'group', id: parts[3], group: parts[1] };
  }
  // /<page>/posts/<id>, /<page>/videos/[<slug>/]<id>, /<page>/photos/<album>/<id>
  const owner = parts[0] && (isHandle(parts[0]) || NUMERIC_ID.test(parts[0])) ? parts[0] : undefined;
  if (owner && parts[1] === 'posts' && parts[2] && isPostId(parts[2])) return { kind: 'post', id: parts[2], page: owner };
  if (owner && parts[1] === 'posts' && parts[3] && isPostId(parts[3])) return { kind: 'post', id: parts[3], page: owner };
  if (owner && parts[1] === 'videos') {
    const id = [parts[3], parts[2]].find((p) => p && NUMERIC_ID.test(p));
    if (id) return { kind: 'video', id, page: owner };
  }
  if (owner && parts[1] === 'photos') {
    const id = parts.slice(2).reverse().find((p) => NUMERIC_ID.test(p));
    // The photo page itself is addressed by its path (album or post set, then the photo id).
    if (id && parts.length <= 5 && parts.slice(2).every((p) => /^[\w.-]{1,80}$/.test(p))) return { kind: 'photo', id, path: `/${parts.map(encodeURIComponent).join('/')}/` };
  }
  // m.facebook.com/<id>: the recorded short permalink (302 to story.php or the video page).
  if (parts.length === 1 && NUMERIC_ID.test(parts[0]!)) return { kind: 'post', id: parts[0]! };
  return undefined;
}

const POST_FORMS =
  'a post id (numeric or pfbid…), a facebook.com/<page>/posts/<id>, /permalink.php or /story.php?story_fbid=…&id=…, /groups/<group>/permalink/<id>, /photo.php?fbid=, /watch/?v=, /<page>/videos/<id> or /reel/<id> link, or an fb.watch short link';

export function parsePostRef(query: string | undefined): PostRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput(`params.query: a facebook post is required (${POST_FORMS})`);
  if (NUMERIC_ID.test(q)) return { kind: 'post', id: q };
  if (OPAQUE_ID.test(q)) throw new InvalidInput(`params.query: an opaque pfbid id alone does not say whose post it is; pass its link (facebook.com/<page>/posts/${q} or story.php?story_fbid=${q}&id=<owner id>)`);
  const url = asUrl(q);
  if (url) {
    const short = shortLink(url);
    if (short) return { kind: 'short', url: short };
    const ref = postRefFromUrl(url);
    if (ref) {
      if (ref.kind === 'post' && !ref.page && OPAQUE_ID.test(ref.id)) throw new InvalidInput(`params.query: ${q.slice(0, 120)} carries an opaque pfbid id without its owner; pass the post's full link`);
      return ref;
    }
  }
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a facebook post reference (${POST_FORMS})`);
}

const PAGE_FORMS = 'a page handle (Nintendo, @Nintendo), a numeric page id, a facebook.com/<page> link, /profile.php?id=<id>, /people/<name>/<id> or /groups/<group>';

export function parsePageRef(query: string | undefined): PageRef {
  const q = (query ?? '').trim().replace(/^@/, '');
  if (!q) throw new InvalidInput(`params.query: a facebook page is required (${PAGE_FORMS})`);
  if (NUMERIC_ID.test(q)) return { kind: 'page', page: q };
  const url = asUrl(q);
  if (!url && isHandle(q)) return { kind: 'page', page: q };
  if (url && FB_HOST.test(url.hostname)) {
    const parts = url.pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
    const first = (parts[0] ?? '').toLowerCase();
    if (first === 'profile.php') {
      const id = param(url, 'id');
      if (id && NUMERIC_ID.test(id)) return { kind: 'profile', id };
    } else if (first === 'people' && parts[2] && NUMERIC_ID.test(parts[2])) {
      return { kind: 'profile', id: parts[2] };
    } else if (first === 'groups' && parts[1] && GROUP.test(parts[1])) {
      return { kind: 'group', group: parts[1] };
    } else if (first === 'pages') {
      const id = parts.slice(1).reverse().find((p) => NUMERIC_ID.test(p));
      if (id) return { kind: 'page', page: id };
    } else if (first === 'pg' && parts[1] && isHandle(parts[1])) {
      return { kind: 'page', page: parts[1] };
    } else if (parts[0] && (isHandle(parts[0]) || NUMERIC_ID.test(parts[0]))) {
      return { kind: 'page', page: parts[0] };
    }
  }
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a facebook page reference (${PAGE_FORMS})`);
}

/** The handle (vanity name) in a link to a page or profile, when it has one. */
export function handleFromHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  let url: URL;
  try {
    url = new URL(href, WWW);
  } catch {
    return undefined;
  }
  if (!FB_HOST.test(url.hostname)) return undefined;
  const first = url.pathname.split('/').filter(Boolean)[0];
  return first && isHandle(first) && !NUMERIC_ID.test(first) ? first : undefined;
}

/** The numeric id in a profile.php?id= link. */
export function profileIdFromHref(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, WWW);
    if (!FB_HOST.test(url.hostname)) return undefined;
    const first = url.pathname.split('/').filter(Boolean)[0];
    if (first === 'profile.php') {
      const id = url.searchParams.get('id');
      return id && NUMERIC_ID.test(id) ? id : undefined;
    }
    return first && NUMERIC_ID.test(first) ? first : undefined;
  } catch {
    return undefined;
  }
}

/** The public www URL of a post reference (the canonical form the item links to). */
export function postUrl(ref: Exclude<PostRef, { kind: 'short' }>): string {
  switch (ref.kind) {
    case 'post':
      return ref.page ? `${WWW}/${ref.page}/posts/${ref.id}` : `${WWW}/${ref.id}`;
    case 'story':
      return `${WWW}/story.php?story_fbid=${ref.id}&id=${ref.owner}`;
    case 'video':
      return ref.page ? `${WWW}/${ref.page}/videos/${ref.id}/` : `${WWW}/watch/?v=${ref.id}`;
    case 'photo':
      return ref.path ? `${WWW}${ref.path}` : `${WWW}/photo.php?fbid=${ref.id}`;
    case 'group':
      return `${WWW}/groups/${ref.group}/permalink/${ref.id}/`;
  }
}

export const pageUrl = (page: string): string => `${WWW}/${page}`;
