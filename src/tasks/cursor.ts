import { InvalidInput } from '../crawl/errors.js';

/**
 * The service's own cursor: the platform's page cursor plus how many items of that page were already
 * handed out, so a limit that ends mid-page loses nothing. A cursor without our prefix is taken as a
 * platform-native one.
 */
export interface CursorState {
  c?: string;
  s: number;
  /**
   * A comments walk stopped inside one thread's replies: the thread's top-level comment (p), the native
   * cursor of its reply page (c, absent for the first) and how many of that page were handed out (s).
   * Resuming finishes that thread before going on at the outer s.
   */
  r?: ThreadState;
}

export interface ThreadState {
  p: string;
  c?: string;
  s?: number;
}

const PREFIX = 'c1.';

export function encodeCursor(state: CursorState): string {
  const body: Record<string, unknown> = { c: state.c };
  if (state.s) body.s = state.s;
  if (state.r) body.r = compactThread(state.r);
  return PREFIX + Buffer.from(JSON.stringify(body)).toString('base64url');
}

function compactThread(r: ThreadState): ThreadState {
  const out: ThreadState = { p: r.p };
  if (r.c !== undefined) out.c = r.c;
  if (r.s) out.s = r.s;
  return out;
}

const isSkip = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) < 100_000;

function threadOf(v: unknown): ThreadState | undefined | false {
  if (v === undefined) return undefined;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const { p, c, s } = v as Record<string, unknown>;
  if (typeof p !== 'string' || p === '' || p.length > 512) return false;
  if (c !== undefined && typeof c !== 'string') return false;
  if (s !== undefined && !isSkip(s)) return false;
  return compactThread({ p, c: c as string | undefined, s: s as number | undefined });
}

export function decodeCursor(cursor: string | undefined): CursorState {
  if (cursor === undefined || cursor === '') return { s: 0 };
  if (!cursor.startsWith(PREFIX)) return { c: cursor, s: 0 };
  try {
    const raw = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('utf8')) as unknown;
    if (raw && typeof raw === 'object') {
      const { c, s, r } = raw as { c?: unknown; s?: unknown; r?: unknown };
      const skip = s === undefined ? 0 : s;
      const thread = threadOf(r);
      if ((c === undefined || typeof c === 'string') && isSkip(skip) && thread !== false) {
        return thread ? { c: c as string | undefined, s: skip, r: thread } : { c: c as string | undefined, s: skip };
      }
    }
  } catch {
    /* fall through */
  }
  throw new InvalidInput('params.cursor: not a cursor this service issued (pass back next_cursor unchanged)');
}
