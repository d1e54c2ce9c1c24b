import { InvalidInput } from '../../crawl/errors.js';

/*
 * AT Protocol identifiers and the reference forms callers paste: bsky.app URLs, at:// URIs, @handles,
 * DIDs, and this service's own item ids (`bluesky:<did>/<rkey>`). Pure: no network here; a handle that
 * must become a DID is resolved in identity.ts.
 */

export const POST_COLLECTION = 'app.bsky.feed.post';
export const WEB_ORIGIN = 'https://bsky.app';

// Syntax rules from the atproto specs (handle, DID, record key); deliberately not stricter.
const HANDLE = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;
const DID = /^did:[a-z]+:[a-zA-Z0-9._:%-]*[a-zA-Z0-9._-]$/;
const RKEY = /^[a-zA-Z0-9._:~-]{1,512}$/;

export const isHandle = (s: string): boolean => s.length <= 253 && HANDLE.test(s);
export const isDid = (s: string): boolean => s.length <= 2048 && DID.test(s);
export const isRkey = (s: string): boolean => RKEY.test(s) && s !== '.' && s !== '..';

/** An account as the caller named it: a DID, or a handle (lower-cased: handles are case-insensitive). */
export type Actor = { did: string } | { handle: string };

export const actorString = (a: Actor): string => ('did' in a ? a.did : a.handle);

export interface PostRef {
  actor: Actor;
  rkey: string;
}

const WEB_HOSTS = /^(?:www\.|staging\.)?bsky\.app$/i;

function asWebUrl(input: string): URL | undefined {
  // A bare "bsky.app" is the handle of Bluesky's own account, not its web app: without a scheme, only a path makes it a URL.
  if (!/^(?:https?:\/\/(?:www\.|staging\.)?bsky\.app(?:[/?#]|$)|(?:www\.|staging\.)?bsky\.app\/)/i.test(input)) return undefined;
  try {
    const url = new URL(/^https?:\/\//i.test(input) ? input : `https://${input}`);
    return WEB_HOSTS.test(url.hostname) ? url : undefined;
  } catch {
    return undefined;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A DID or handle as written in a URL segment, an at:// authority or after an @. */
export function parseActor(raw: string): Actor | undefined {
  const s = safeDecode(raw.trim()).replace(/^@/, '');
  if (isDid(s)) return { did: s };
  if (isHandle(s)) return { handle: s.toLowerCase() };
  return undefined;
}

export interface AtUri {
  authority: string;
  collection?: string;
  rkey?: string;
}

/** at://<authority>[/<collection>[/<rkey>]] */
export function parseAtUri(input: string): AtUri | undefined {
  const m = /^at:\/\/([^/?#]+)(?:\/([^/?#]+)(?:\/([^/?#]+))?)?\/?$/.exec(input.trim());
  if (!m) return undefined;
  return { authority: safeDecode(m[1]), collection: m[2], rkey: m[3] };
}

export const postAtUri = (did: string, rkey: string): string => `at://${did}/${POST_COLLECTION}/${rkey}`;

/**
 * A post reference: bsky.app/profile/<handle|did>/post/<rkey>, at://<did|handle>/app.bsky.feed.post/<rkey>,
 * or this service's native id <did>/<rkey> (also prefixed bluesky:).
 */
export function parsePostRef(input: string | undefined): PostRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a bluesky post reference is required (bsky.app post URL or at:// URI)');
  const web = asWebUrl(raw);
  if (web) {
    const [a, who, b, rkey] = web.pathname.split('/').filter(Boolean);
    const actor = a === 'profile' && who ? parseActor(who) : undefined;
    if (actor && b === 'post' && rkey && isRkey(rkey)) return { actor, rkey };
    throw new InvalidInput(`"${raw}" is not a bluesky post URL (expected https://bsky.app/profile/<handle>/post/<rkey>)`);
  }
  if (raw.startsWith('at://')) {
    const at = parseAtUri(raw);
    const actor = at ? parseActor(at.authority) : undefined;
    if (!at || !actor || at.collection !== POST_COLLECTION || !at.rkey || !isRkey(at.rkey)) {
      throw new InvalidInput(`"${raw}" is not the at:// URI of a bluesky post (expected at://<did>/${POST_COLLECTION}/<rkey>)`);
    }
    return { actor, rkey: at.rkey };
  }
  const native = /^(?:bluesky:)?(did:[^/\s]+)\/([^/\s]+)$/.exec(raw);
  if (native && isDid(native[1]) && isRkey(native[2])) return { actor: { did: native[1] }, rkey: native[2] };
  throw new InvalidInput(`"${raw}" does not name a bluesky post (expected a bsky.app post URL, an at:// post URI or <did>/<rkey>)`);
}

/** A creator reference: bsky.app/profile/<handle|did>, @handle, handle, DID, or at://<did>. */
export function parseCreatorRef(input: string | undefined): Actor {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a bluesky account is required (handle, DID or bsky.app profile URL)');
  const web = asWebUrl(raw);
  if (web) {
    const [a, who] = web.pathname.split('/').filter(Boolean);
    const actor = a === 'profile' && who ? parseActor(who) : undefined;
    if (actor) return actor;
    throw new InvalidInput(`"${raw}" is not a bluesky profile URL (expected https://bsky.app/profile/<handle or did>)`);
  }
  if (raw.startsWith('at://')) {
    const at = parseAtUri(raw);
    const actor = at && !at.collection ? parseActor(at.authority) : undefined;
    if (actor) return actor;
    throw new InvalidInput(`"${raw}" is not an account at:// URI (expected at://<did>)`);
  }
  const actor = parseActor(raw);
  if (actor) return actor;
  throw new InvalidInput(`"${raw}" is not a bluesky handle, DID or profile URL`);
}

/** A usable handle: the AppView reports "handle.invalid" when an account's handle no longer verifies. */
export const goodHandle = (h: string | undefined): string | undefined => (h && h !== 'handle.invalid' && isHandle(h) ? h : undefined);

export const profileUrl = (handleOrDid: string): string => `${WEB_ORIGIN}/profile/${handleOrDid}`;

export const postUrl = (handleOrDid: string, rkey: string): string => `${WEB_ORIGIN}/profile/${handleOrDid}/post/${rkey}`;

/** Item native id: <did>/<rkey>. A bare rkey is only unique within one repository; the DID never changes. */
export const nativeId = (did: string, rkey: string): string => `${did}/${rkey}`;

/*
 * TIDs (timestamp identifiers, the usual record key): 13 characters of base32-sortable
 * ("234567abcdefghijklmnopqrstuvwxyz") encoding a 64-bit integer whose top bit is 0, then 53 bits of
 * microseconds since the UNIX epoch, then a 10-bit clock id.
 */
const B32 = '234567abcdefghijklmnopqrstuvwxyz';
const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;

export const isTid = (s: string): boolean => TID.test(s);

/** Microseconds since the epoch encoded in a TID, or undefined when it is not one. */
export function tidMicros(tid: string): bigint | undefined {
  if (!isTid(tid)) return undefined;
  let n = 0n;
  for (const ch of tid) n = (n << 5n) | BigInt(B32.indexOf(ch));
  return n >> 10n;
}

/** Unix seconds from a TID record key; a fallback when a record carries no usable createdAt. */
export function tidSeconds(tid: string): number | undefined {
  const us = tidMicros(tid);
  return us === undefined ? undefined : Number(us / 1_000_000n);
}
