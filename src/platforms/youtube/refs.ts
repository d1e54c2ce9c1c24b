import { InvalidInput } from '../../crawl/errors.js';

/*
 * Reference forms (yt-dlp / NewPipe URL patterns as facts):
 * videos   — watch?v=<id>, /shorts/<id>, /live/<id>, /embed/<id>, /v/<id>, youtu.be/<id>, a bare 11-character id;
 * channels — /channel/UC…, a bare UC… id, @handle, /@handle, /c/<name>, /user/<name>, /<legacy custom name>.
 */

export const WEB_ORIGIN = 'https://www.youtube.com';

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
// Handles: 3-30 letters, digits, '_', '-', '.', any script (YouTube allows non-Latin handles).
const HANDLE = /^[\p{L}\p{N}_.-]{1,100}$/u;
const YT_HOST = /^(?:(?:www|m|music|gaming)\.)?youtube\.com$|^youtube-nocookie\.com$|^www\.youtube-nocookie\.com$/i;
const SHORT_HOST = /^(?:www\.)?youtu\.be$/i;
/** First path segments that are YouTube pages, never a legacy custom channel name. */
const RESERVED = new Set([
  'watch', 'shorts', 'live', 'embed', 'v', 'e', 'results', 'feed', 'playlist', 'channel', 'c', 'user', 'hashtag', 'gaming',
  'premium', 'account', 'redirect', 'attribution_link', 'signin', 'logout', 'upload', 't', 'about', 'howyoutubeworks', 'post',
]);

export const isVideoId = (s: string): boolean => VIDEO_ID.test(s);
export const isChannelId = (s: string): boolean => CHANNEL_ID.test(s);

export const watchUrl = (videoId: string): string => `${WEB_ORIGIN}/watch?v=${videoId}`;
export const channelUrl = (channelId: string): string => `${WEB_ORIGIN}/channel/${channelId}`;
export const handleUrl = (handle: string): string => `${WEB_ORIGIN}/${handle.startsWith('@') ? handle : `@${handle}`}`;
export const commentUrl = (videoId: string, commentId: string): string => `${watchUrl(videoId)}&lc=${commentId}`;

function asUrl(input: string): URL | undefined {
  const s = input.trim();
  if (!/^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*(?:youtube\.com|youtube-nocookie\.com|youtu\.be)(?:[/?#]|$)/i.test(s)) return undefined;
  try {
    return new URL(/^https?:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    return undefined;
  }
}

function segments(url: URL): string[] {
  return url.pathname
    .split('/')
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
}

/** A video reference → its 11-character id. */
export function parseVideoRef(input: string | undefined): string {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a youtube video reference (URL or 11-character id) is required');
  if (isVideoId(raw)) return raw;
  const url = asUrl(raw);
  if (!url) throw new InvalidInput(`"${raw}" is not a youtube video id or URL`);
  const parts = segments(url);
  if (SHORT_HOST.test(url.hostname)) {
    if (parts[0] && isVideoId(parts[0])) return parts[0];
  } else if (YT_HOST.test(url.hostname)) {
    const v = url.searchParams.get('v');
    if (parts[0] === 'watch' && v && isVideoId(v)) return v;
    if (['shorts', 'live', 'embed', 'v', 'e'].includes(parts[0] ?? '') && parts[1] && isVideoId(parts[1])) return parts[1];
    if (v && isVideoId(v)) return v;
  }
  throw new InvalidInput(`"${raw}" is not a youtube video URL (expected watch?v=<id>, /shorts/<id>, youtu.be/<id> or an 11-character id)`);
}

/** A channel is either known by its UC id, or only through a URL that navigation/resolve_url turns into one. */
export type ChannelRef = { channelId: string } | { resolveUrl: string };

/** A channel reference → its UC id, or the canonical youtube.com URL to resolve. */
export function parseChannelRef(input: string | undefined): ChannelRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a youtube channel reference (@handle, channel URL or UC… id) is required');
  if (isChannelId(raw)) return { channelId: raw };
  const url = asUrl(raw);
  if (url) {
    if (!YT_HOST.test(url.hostname)) throw new InvalidInput(`"${raw}" is not a youtube channel URL`);
    const [a, b] = segments(url);
    if (a === 'channel' && b && isChannelId(b)) return { channelId: b };
    if (a?.startsWith('@') && HANDLE.test(a.slice(1))) return { resolveUrl: handleUrl(a) };
    if ((a === 'c' || a === 'user') && b && HANDLE.test(b)) return { resolveUrl: `${WEB_ORIGIN}/${a}/${b}` };
    if (a && !RESERVED.has(a.toLowerCase()) && HANDLE.test(a)) return { resolveUrl: `${WEB_ORIGIN}/${a}` };
    throw new InvalidInput(`"${raw}" is not a youtube channel URL (expected /@handle, /channel/UC…, /c/<name> or /user/<name>)`);
  }
  const handle = raw.replace(/^@/, '');
  if (HANDLE.test(handle)) return { resolveUrl: handleUrl(handle) };
  throw new InvalidInput(`"${raw}" is not a youtube @handle, channel URL or UC… channel id`);
}

/** "/@name", "http://www.youtube.com/@name" or "@name" → "@name"; other channel URLs carry no handle. */
export function handleFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const m = /(?:^|\/)(@[^/?#\s]+)/.exec(value.trim());
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/** Item.author_url: the channel URL by id (stable), else the handle URL. */
export function authorUrl(author: { id?: string; handle?: string }): string | undefined {
  if (author.id && isChannelId(author.id)) return channelUrl(author.id);
  const handle = handleFrom(author.handle?.startsWith('@') ? author.handle : author.handle ? `@${author.handle}` : undefined);
  return handle ? handleUrl(handle) : undefined;
}
