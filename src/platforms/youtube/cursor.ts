import { createHash } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import type { Owner } from './parse.js';

/**
 * Native cursor: the continuation token plus what the next page needs but does not repeat (the visitor id the
 * feed was served under; for channel tabs, the channel its cards belong to).
 *
 * The service caps params.cursor at 2048 characters and the runner wraps our cursor in its own (base64, ×4/3),
 * while YouTube's browse continuations run from ~1.6k to 4k+ characters. So, in order: the state as base64 JSON
 * (yt1.); the token's decoded bytes deflated (ytz., ~25% shorter: enough for a channel's first continuation);
 * the bare token; and only when none fits, the state parked in this process's memo under a key (ytm.), which
 * expires with the memo.
 */
export interface YtCursor {
  t: string;
  v?: string;
  a?: Owner;
}

/** Longest native cursor whose runner-wrapped form still fits the 2048-character param. */
export const MAX_NATIVE = 1500;
const PARKED_TTL_MS = 2 * 3600_000;
const INLINE = 'yt1.';
const PACKED = 'ytz.';
const PARKED = 'ytm.';

// Token spelling, so the exact string comes back: percent-encoded padding, URL-safe alphabet, no padding.
const PCT = 1;
const URLSAFE = 2;
const NOPAD = 4;

function spell(bytes: Buffer, flags: number): string {
  let s = bytes.toString('base64');
  if (flags & URLSAFE) s = s.replace(/\+/g, '-').replace(/\//g, '_');
  if (flags & NOPAD) s = s.replace(/=+$/, '');
  if (flags & PCT) s = s.replace(/=/g, '%3D');
  return s;
}

/** The token as bytes, when they spell it back exactly. */
function tokenBytes(t: string): { flags: number; bytes: Buffer } | undefined {
  const s = t.replace(/%3D/gi, '=');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) return undefined;
  const flags = (s !== t ? PCT : 0) | (/[-_]/.test(s) ? URLSAFE : 0) | (/=$/.test(s) ? 0 : NOPAD);
  const bytes = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return spell(bytes, flags) === t ? { flags, bytes } : undefined;
}

function pack(c: YtCursor): string | undefined {
  const tb = tokenBytes(c.t);
  if (!tb) return undefined;
  for (const extra of [{ v: c.v, a: c.a }, { a: c.a }, {}]) {
    const meta = Buffer.from(JSON.stringify(extra));
    const head = Buffer.alloc(3);
    head.writeUInt8(tb.flags, 0);
    head.writeUInt16BE(meta.length, 1);
    const packed = PACKED + deflateRawSync(Buffer.concat([head, meta, tb.bytes]), { level: 9 }).toString('base64url');
    if (packed.length <= MAX_NATIVE) return packed;
  }
  return undefined;
}

function unpack(s: string): YtCursor {
  const raw = inflateRawSync(Buffer.from(s, 'base64url'));
  const flags = raw.readUInt8(0);
  const metaLength = raw.readUInt16BE(1);
  const meta = JSON.parse(raw.subarray(3, 3 + metaLength).toString('utf8')) as Omit<YtCursor, 't'>;
  return { ...meta, t: spell(raw.subarray(3 + metaLength), flags) };
}

export function encodeYtCursor(ctx: CrawlContext, c: YtCursor | undefined): string | undefined {
  if (!c?.t) return undefined;
  const inline = INLINE + Buffer.from(JSON.stringify(c)).toString('base64url');
  if (inline.length <= MAX_NATIVE) return inline;
  const packed = pack(c);
  if (packed) return packed;
  if (c.t.length <= MAX_NATIVE && !/^yt[1zm]\./.test(c.t)) return c.t;
  const key = createHash('sha1').update(c.t).digest('hex').slice(0, 24);
  ctx.memo.set(`cursor:${key}`, c, PARKED_TTL_MS);
  return PARKED + key;
}

export function decodeYtCursor(ctx: CrawlContext, cursor: string | undefined): YtCursor | undefined {
  if (!cursor) return undefined;
  if (cursor.startsWith(PARKED)) {
    const parked = ctx.memo.get<YtCursor>(`cursor:${cursor.slice(PARKED.length)}`);
    if (parked) return parked;
    throw new InvalidInput('params.cursor: this youtube cursor has expired (its continuation was held in the memory of a crawl process); start again without a cursor');
  }
  if (!cursor.startsWith(INLINE) && !cursor.startsWith(PACKED)) return { t: cursor };
  try {
    const c = cursor.startsWith(PACKED)
      ? unpack(cursor.slice(PACKED.length))
      : (JSON.parse(Buffer.from(cursor.slice(INLINE.length), 'base64url').toString('utf8')) as YtCursor);
    if (c && typeof c.t === 'string' && c.t) return c;
  } catch {
    /* fall through */
  }
  throw new InvalidInput('params.cursor: not a youtube cursor (pass back next_cursor unchanged)');
}

/** The UC… channel a browse continuation token is about (its protobuf carries the browseId). */
export function channelOfToken(token: string): string | undefined {
  try {
    const bytes = Buffer.from(decodeURIComponent(token).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1');
    return /UC[A-Za-z0-9_-]{22}/.exec(bytes)?.[0];
  } catch {
    return undefined;
  }
}
