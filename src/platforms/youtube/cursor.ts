import { createHash } from 'node:crypto';
import { InvalidInput } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import type { Owner } from './parse.js';

/**
 * Native cursor: the continuation token plus what the next page needs but does not repeat (the visitor id the
 * feed was served under; for channel tabs, the channel its cards belong to).
 *
 * The service caps params.cursor at 2048 characters, and the runner wraps our cursor in its own (base64, ×4/3),
 * while YouTube's browse continuations run from ~1.6k to 4k+ characters. So: small state travels in the cursor
 * itself (yt1.<base64 JSON>); a bare token when only it fits; otherwise the state is parked in this process's
 * memo and the cursor names it (ytm.<key>), which expires with the memo.
 */
export interface YtCursor {
  t: string;
  v?: string;
  a?: Owner;
}

/** Longest native cursor whose runner-wrapped form still fits the 2048-character param. */
export const MAX_NATIVE = 1500;
const PARKED_TTL_MS = 6 * 3600_000;
const INLINE = 'yt1.';
const PARKED = 'ytm.';

export function encodeYtCursor(ctx: CrawlContext, c: YtCursor | undefined): string | undefined {
  if (!c?.t) return undefined;
  const inline = INLINE + Buffer.from(JSON.stringify(c)).toString('base64url');
  if (inline.length <= MAX_NATIVE) return inline;
  if (c.t.length <= MAX_NATIVE && !c.t.startsWith(INLINE) && !c.t.startsWith(PARKED)) return c.t;
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
  if (!cursor.startsWith(INLINE)) return { t: cursor };
  try {
    const raw = JSON.parse(Buffer.from(cursor.slice(INLINE.length), 'base64url').toString('utf8')) as YtCursor;
    if (raw && typeof raw.t === 'string' && raw.t) return raw;
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
