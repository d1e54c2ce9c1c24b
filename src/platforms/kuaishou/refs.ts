import { InvalidInput } from '../../crawl/errors.js';

/*
 * Kuaishou ids (cn-platforms.md §4): a web photo id and a user eid are 15 characters, "3x" + 13 of
 * [0-9a-z] (3x27q2f82gnxn4e); older and mini-program answers name users by a numeric user_id.
 * Share links: v.kuaishou.com/<code> and www.kuaishou.com/f/<token> redirect to a short-video or a
 * chenzhongtech /fw/photo/ page (KS-Downloader link/examiner.py; MediaCrawlerPro 46b08f1 for /f/).
 */

export const WWW = 'https://www.kuaishou.com';

const EID = /^3x[0-9a-z]{13}$/;
const NUMERIC_USER = /^[1-9]\d{0,19}$/;

export const isWebId = (s: string): boolean => EID.test(s);
export const isNumericUserId = (s: string): boolean => NUMERIC_USER.test(s);

export type PostRef = { photoId: string } | { short: string };
export type CreatorRef = { userId: string } | { name: string } | { short: string };

const SHORT_HOSTS = new Set(['v.kuaishou.com', 'v.kuaishou.cn']);
const MOBILE_HOST = /^(?:[a-z0-9-]+\.)*chenzhongtech\.com$/i;
const KS_HOST = /^(?:[a-z0-9-]+\.)*kuaishou\.(?:com|cn)$/i;

function asUrl(input: string): URL | undefined {
  const s = input.trim();
  const withScheme = /^https?:\/\//i.test(s)
    ? s
    : /^(?:[a-z0-9-]+\.)*(?:kuaishou\.(?:com|cn)|chenzhongtech\.com)(?:[/?#]|$)/i.test(s)
      ? `https://${s}`
      : undefined;
  if (!withScheme) return undefined;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

const segments = (url: URL): string[] => url.pathname.split('/').filter(Boolean);
const webId = (s: string | undefined | null): string | undefined => {
  const v = (s ?? '').trim().toLowerCase();
  return EID.test(v) ? v : undefined;
};

/** The short link a URL is, normalized, or undefined. */
function shortLink(url: URL): string | undefined {
  const host = url.hostname.toLowerCase();
  const parts = segments(url);
  if (SHORT_HOSTS.has(host) && parts[0] && /^[\w-]{3,64}$/.test(parts[0])) return `https://${host}/${parts[0]}`;
  if (/^(?:www\.)?kuaishou\.com$/.test(host) && parts[0] === 'f' && parts[1] && /^[\w-]{3,64}$/.test(parts[1])) return `${WWW}/f/${parts[1]}`;
  return undefined;
}

/** The photo a kuaishou or chenzhongtech page URL names. */
export function photoFromUrl(url: URL): string | undefined {
  const parts = segments(url);
  const host = url.hostname;
  if (KS_HOST.test(host)) {
    const i = parts.findIndex((p) => p === 'short-video' || p === 'long-video');
    if (i >= 0) return webId(parts[i + 1]);
    // live.kuaishou.com/u/<eid>/<photoId>
    if (/^live\./i.test(host) && parts[0] === 'u' && parts.length >= 3) return webId(parts[2]);
  }
  if (MOBILE_HOST.test(host) || KS_HOST.test(host)) {
    const i = parts.indexOf('photo');
    if (i >= 1 && parts[i - 1] === 'fw') return webId(parts[i + 1]) ?? webId(url.searchParams.get('photoId'));
  }
  return undefined;
}

/** The creator a kuaishou or chenzhongtech page URL names. */
export function creatorFromUrl(url: URL): string | undefined {
  const parts = segments(url);
  if (KS_HOST.test(url.hostname)) {
    const i = parts.indexOf('profile');
    if (i >= 0) return userIdOf(parts[i + 1]);
  }
  if (MOBILE_HOST.test(url.hostname) || KS_HOST.test(url.hostname)) {
    const i = parts.indexOf('user');
    if (i >= 1 && parts[i - 1] === 'fw') return userIdOf(parts[i + 1]);
  }
  return undefined;
}

function userIdOf(s: string | undefined): string | undefined {
  const v = (s ?? '').trim();
  return webId(v) ?? (NUMERIC_USER.test(v) ? v : undefined);
}

/**
 * A post reference: a photo id (3x…), a www.kuaishou.com/short-video/<id> (or long-video) URL,
 * live.kuaishou.com/u/<eid>/<id>, v.m.chenzhongtech.com/fw/photo/<id>, or a share link
 * (v.kuaishou.com/<code>, www.kuaishou.com/f/<token>), also when pasted inside share text.
 */
export function parsePostRef(input: string | undefined): PostRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a kuaishou video reference (photo id, short-video URL or share link) is required');
  const id = webId(raw);
  if (id) return { photoId: id };
  const url = asUrl(raw) ?? asUrl(linkIn(raw) ?? '');
  if (!url) throw new InvalidInput(`"${clip(raw)}" is not a kuaishou video reference (expected a 3x… photo id, a short-video URL or a v.kuaishou.com link)`);
  const short = shortLink(url);
  if (short) return { short };
  if (!KS_HOST.test(url.hostname) && !MOBILE_HOST.test(url.hostname)) throw new InvalidInput(`"${clip(raw)}" is not a kuaishou URL`);
  const photoId = photoFromUrl(url);
  if (photoId) return { photoId };
  throw new InvalidInput(`"${clip(raw)}" is not a kuaishou video URL (expected /short-video/<3x… id> or /fw/photo/<3x… id>)`);
}

/**
 * A creator reference: an eid (3x…), a numeric user id, a profile URL (www/live.kuaishou.com/profile/<id>,
 * v.m.chenzhongtech.com/fw/user/<id>), a share link to one, or @name / @kwaiId (looked up by user search).
 */
export function parseCreatorRef(input: string | undefined): CreatorRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a kuaishou creator reference (eid, user id, profile URL or @name) is required');
  const id = userIdOf(raw.toLowerCase()) ?? userIdOf(raw);
  if (id) return { userId: id };
  const url = asUrl(raw);
  if (url) {
    const short = shortLink(url);
    if (short) return { short };
    if (!KS_HOST.test(url.hostname) && !MOBILE_HOST.test(url.hostname)) throw new InvalidInput(`"${clip(raw)}" is not a kuaishou URL`);
    const userId = creatorFromUrl(url);
    if (userId) return { userId };
    throw new InvalidInput(`"${clip(raw)}" is not a kuaishou profile URL (expected www.kuaishou.com/profile/<eid>)`);
  }
  const name = raw.replace(/^@/, '').trim();
  if (!name || name.length > 64 || /[/?#\s]/.test(name) || !raw.startsWith('@')) {
    throw new InvalidInput(`"${clip(raw)}" is not a kuaishou eid, user id, profile URL or @name`);
  }
  return { name };
}

/** The first kuaishou link inside pasted share text ("… 复制打开快手 https://v.kuaishou.com/abc …"). */
function linkIn(text: string): string | undefined {
  return /https?:\/\/[^\s"'<>，。]*(?:kuaishou\.(?:com|cn)|chenzhongtech\.com)[^\s"'<>，。]*/i.exec(text)?.[0];
}

const clip = (s: string): string => (s.length > 80 ? `${s.slice(0, 77)}…` : s);

export const videoUrl = (photoId: string): string => `${WWW}/short-video/${photoId}`;
export const profileUrl = (eid: string): string => `${WWW}/profile/${eid}`;
export const searchUrl = (word: string): string => `${WWW}/search/video?searchKey=${encodeURIComponent(word)}`;
export const mobilePhotoUrl = (photoId: string): string => `https://v.m.chenzhongtech.com/fw/photo/${photoId}`;
