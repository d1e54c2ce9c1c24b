import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../domain/errors.js';
import type { Params } from '../platforms/types.js';

const PREFIX = 'k1.';
const MAC_BYTES = 16;

/**
 * What a cursor means depends on what made it: a next_cursor is signed together with the source,
 * action, query and category of its task, so it cannot be replayed against another query, edited, or
 * made up (a made-up string would otherwise reach the platform as its own cursor).
 */
export class CursorSeal {
  constructor(private readonly key: Buffer) {}

  seal(inner: string, source: string, action: string, params: Params): string {
    const body = Buffer.from(inner, 'utf8').toString('base64url');
    return `${PREFIX}${body}.${this.mac(body, source, action, params)}`;
  }

  /** The service's inner cursor, or 400 invalid_request naming why not. */
  open(cursor: string, source: string, action: string, params: Params): string {
    const dot = cursor.lastIndexOf('.');
    if (!cursor.startsWith(PREFIX) || dot <= PREFIX.length) throw invalid('not a cursor this service issued (pass back next_cursor unchanged)');
    const body = cursor.slice(PREFIX.length, dot);
    const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const want = Buffer.from(this.mac(body, source, action, params), 'base64url');
    if (given.length !== want.length || !timingSafeEqual(given, want)) {
      throw invalid(`not valid for ${source}.${action} with this query: a cursor only continues the task that produced it (same source, action, query and category), unchanged`);
    }
    return Buffer.from(body, 'base64url').toString('utf8');
  }

  private mac(body: string, source: string, action: string, params: Params): string {
    const binding = JSON.stringify([source, action, params.query ?? null, params.category ?? null, body]);
    return createHmac('sha256', this.key).update(binding).digest().subarray(0, MAC_BYTES).toString('base64url');
  }
}

function invalid(why: string): ApiError {
  return new ApiError('invalid_request', `params.cursor: ${why}`);
}
