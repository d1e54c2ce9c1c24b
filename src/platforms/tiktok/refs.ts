import { InvalidInput } from '../../crawl/errors.js';

/*
 * Every reference form the research notes list (cn-platforms.md §2; yt-dlp tiktok.py _VALID_URLs):
 * posts by a 15-21 digit id, www/m.tiktok.com/@user/video|photo/<id>, m.tiktok.com/v/<id>.html,
 * /embed(/v2)/<id>, www.tiktok(v).com/share/video/<id>, t.tiktok.com/i18n/share/video/<id>; creators by
 * @handle, a profile URL, a secUid (MS4wLjABAAAA…) or a numeric user id; and the share links
 * vm.tiktok.com/<code>, vt.tiktok.com/<code>, www.tiktok.com/t/<code>, resolved by their redirect.
 */

export const WEB = 'https://www.tiktok.com';
export const SHORT_HOSTS = ['vm.tiktok.com', 'vt.tiktok.com'];

export interface VideoRef {
  id: string;
  /** The creator's handle when the reference names it (kept for the page URL). */
  handle?: string;
  /** The reference is a photo (image carousel) post's URL. */
  photo?: boolean;
}
export type PostRef = VideoRef | { short: string };

export type CreatorRef = { handle: string } | { secUid: string } | { uid: string } | { short: string };

const VIDEO_ID = /^\d{15,21}$/;
const HANDLE = /^[A-Za-z0-9_.-]{1,32}$/;
const SEC_UID = /^MS4wLjABAAAA[\w-]{20,120}$/;

export const isVideoId = (s: string): boolean => VIDEO_ID.test(s);
export const isSecUid = (s: string): boolean => SEC_UID.test(s);
export const isHandle = (s: string): boolean => HANDLE.test(s) && !/^\.+$/.test(s);

const TIKTOK_HOST = /^(?:(?:www|m|t|vm|vt)\.)?tiktokv?\.com$/i;

function asUrl(input: string): URL | undefined {
  const s = input.trim();
  const withScheme = /^https?:\/\//i.test(s) ? s : /^(?:[a-z0-9-]+\.)*tiktokv?\.com(?:[/?#]|$)/i.test(s) ? `https://${s}` : undefined;
  if (!withScheme) return undefined;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

const segments = (url: URL): string[] =>
  url.pathname
    .split('/')
    .filter(Boolean)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });

/** The share-link form of a URL (vm./vt.tiktok.com/<code>, www.tiktok.com/t/<code>), canonicalised. */
export function shortLinkOf(url: URL): string | undefined {
  const host = url.hostname.toLowerCase();
  const seg = segments(url);
  if (SHORT_HOSTS.includes(host) && seg[0] && /^\w{3,32}$/.test(seg[0])) return `https://${host}/${seg[0]}/`;
  if (/^(?:www\.)?tiktok\.com$/.test(host) && seg[0] === 't' && seg[1] && /^\w{3,32}$/.test(seg[1])) return `${WEB}/t/${seg[1]}/`;
  return undefined;
}

/** A post named by a TikTok URL, or undefined when the URL names none. */
export function videoFromUrl(url: URL): VideoRef | undefined {
  if (!TIKTOK_HOST.test(url.hostname)) return undefined;
  const seg = segments(url);
  // /@user/video/<id>, /@user/photo/<id> (also with an empty or "_" user)
  const at = seg.findIndex((s) => s.startsWith('@'));
  const kindAt = seg.findIndex((s) => s === 'video' || s === 'photo');
  if (kindAt >= 0 && seg[kindAt + 1] && VIDEO_ID.test(seg[kindAt + 1])) {
    const ref: VideoRef = { id: seg[kindAt + 1] };
    const handle = at >= 0 && at < kindAt ? seg[at].slice(1) : '';
    if (handle && handle !== '_' && isHandle(handle)) ref.handle = handle;
    if (seg[kindAt] === 'photo') ref.photo = true;
    return ref;
  }
  // m.tiktok.com/v/<id>.html
  if (seg[0] === 'v' && seg[1]) {
    const m = /^(\d{15,21})(?:\.html)?$/.exec(seg[1]);
    if (m) return { id: m[1] };
  }
  // /embed/<id>, /embed/v2/<id>
  if (seg[0] === 'embed') {
    const id = seg[1] === 'v2' || seg[1] === 'v3' ? seg[2] : seg[1];
    if (id && VIDEO_ID.test(id)) return { id };
  }
  return undefined;
}

/** The creator a profile URL names (www.tiktok.com/@handle, /@secUid, also under a post URL). */
export function creatorFromUrl(url: URL): CreatorRef | undefined {
  if (!TIKTOK_HOST.test(url.hostname)) return undefined;
  const at = segments(url).find((s) => s.startsWith('@'));
  const name = at?.slice(1) ?? '';
  if (isSecUid(name)) return { secUid: name };
  if (name && name !== '_' && isHandle(name)) return { handle: name };
  return undefined;
}

/**
 * A post reference: a video id, a post URL in any of the forms above, or a share link (kept for
 * resolution by its redirect).
 */
export function parsePostRef(input: string | undefined): PostRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a TikTok post reference (video id or URL) is required');
  if (VIDEO_ID.test(raw)) return { id: raw };
  const url = asUrl(raw);
  if (!url || !TIKTOK_HOST.test(url.hostname)) throw new InvalidInput(`"${raw}" is not a TikTok post reference (expected a video id or a tiktok.com URL)`);
  const short = shortLinkOf(url);
  if (short) return { short };
  const ref = videoFromUrl(url);
  if (ref) return ref;
  throw new InvalidInput(`"${raw}" is not a TikTok post URL (expected …/@user/video/<id> or …/@user/photo/<id>)`);
}

/**
 * A creator reference: @handle, a bare handle, a profile URL, a secUid (MS4wLjABAAAA…), a numeric user id
 * (uid:<digits> or bare digits), or a share link to a profile.
 */
export function parseCreatorRef(input: string | undefined): CreatorRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a TikTok creator reference (@handle, profile URL or secUid) is required');
  const url = asUrl(raw);
  if (url) {
    if (!TIKTOK_HOST.test(url.hostname)) throw new InvalidInput(`"${raw}" is not a TikTok URL`);
    const short = shortLinkOf(url);
    if (short) return { short };
    const creator = creatorFromUrl(url);
    if (creator) return creator;
    throw new InvalidInput(`"${raw}" is not a TikTok profile URL (expected www.tiktok.com/@<handle>)`);
  }
  const uid = /^(?:uid[:：]\s*)?(\d{1,21})$/i.exec(raw);
  if (uid) return { uid: uid[1] };
  const name = raw.replace(/^@/, '');
  if (isSecUid(name)) return { secUid: name };
  if (isHandle(name)) return { handle: name };
  throw new InvalidInput(`"${raw}" is not a TikTok @handle, profile URL or secUid`);
}

export const profileUrl = (handleOrSecUid: string): string => `${WEB}/@${encodeURIComponent(handleOrSecUid)}`;

/** The canonical page of a post; "_" stands for an unknown handle, as TikTok's own links accept. */
export const postUrl = (id: string, handle?: string, photo = false): string =>
  `${WEB}/@${handle ? encodeURIComponent(handle) : '_'}/${photo ? 'photo' : 'video'}/${id}`;
