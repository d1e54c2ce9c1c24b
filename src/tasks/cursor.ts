import { InvalidInput } from '../crawl/errors.js';

/**
 * The service's own cursor: the platform's page cursor plus how many items of that page were already
 * handed out, so a limit that ends mid-page loses nothing. A cursor without our prefix is taken as a
 * platform-native one.
 */
export interface CursorState {
  c?: string;
  s: number;
}

const PREFIX = 'c1.';

export function encodeCursor(state: CursorState): string {
  return PREFIX + Buffer.from(JSON.stringify(state.s ? state : { c: state.c })).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): CursorState {
  if (cursor === undefined || cursor === '') return { s: 0 };
  if (!cursor.startsWith(PREFIX)) return { c: cursor, s: 0 };
  try {
    const raw = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('utf8')) as unknown;
    if (raw && typeof raw === 'object') {
      const { c, s } = raw as { c?: unknown; s?: unknown };
      const skip = s === undefined ? 0 : s;
      if ((c === undefined || typeof c === 'string') && Number.isInteger(skip) && (skip as number) >= 0 && (skip as number) < 100_000) {
        return { c: c as string | undefined, s: skip as number };
      }
    }
  } catch {
    /* fall through */
  }
  throw new InvalidInput('params.cursor: not a cursor this service issued (pass back next_cursor unchanged)');
}
