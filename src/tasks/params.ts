import type { CatalogEntry, CatalogParam } from '../domain/catalog.js';
import { ApiError } from '../domain/errors.js';
import { CALLBACK_URL_MAX } from '../webhooks/target.js';
import type { ActionDef, CommentsAction, Params, PlatformAdapter } from '../platforms/types.js';
import { parseDateParam } from './dates.js';
import { REPLIES_MODES } from './comment-walk.js';

export const LIMIT_MAX = 100;
export const DEFAULT_LIMIT = 24;
export const MAX_ITEMS_MAX = 10_000;
export const STRING_MAX = 20_000;

const p = (name: string, type: CatalogParam['type'], description: string, extra: Partial<CatalogParam> = {}): CatalogParam => ({
  name,
  type,
  required: false,
  description,
  ...extra,
});

const PROFILE = p('profile', 'string', 'which stored login to crawl as; "pool" (or "pool:<name>") lets the service pick the healthiest free profile of the platform', { default: 'default' });
const FORCE = p('force', 'boolean', 'bypass the cache and crawl live', { default: false });
const MAX_AGE = p('max_age_s', 'integer', 'serve from cache only if the cached result is fresher than this many seconds', { min: 0, max: 31_536_000 });
const LIMIT = p('limit', 'integer', `maximum items (1 to ${LIMIT_MAX})`, { default: DEFAULT_LIMIT, min: 1, max: LIMIT_MAX });
const CURSOR = p('cursor', 'string', "a previous response's next_cursor (or cursor); bypasses the cache");
const FILTERS: CatalogParam[] = [
  p('media', 'string', 'keep only items of this media type', { enum: ['video', 'image', 'any'] }),
  p('min_duration_s', 'number', 'keep videos at least this long (seconds)', { min: 0 }),
  p('max_duration_s', 'number', 'keep videos at most this long (seconds)', { min: 0 }),
  p('orientation', 'string', 'keep media of this orientation', { enum: ['landscape', 'portrait', 'square'] }),
  p('min_width', 'integer', 'keep media at least this wide (pixels)', { min: 0, max: 100_000 }),
  p('min_height', 'integer', 'keep media at least this high (pixels)', { min: 0, max: 100_000 }),
];
const PREVIEW = p('preview', 'string', 'eager: render the scrub preview of each new video item at crawl time', { enum: ['eager'] });
const MAX_ITEMS = p('max_items', 'integer', `walk the back catalogue up to this many items (-1: the whole account, at most ${MAX_ITEMS_MAX} otherwise); paced`, {
  min: -1,
  max: MAX_ITEMS_MAX,
});

const CALLBACK_URL = p(
  'callback_url',
  'string',
  `https URL (at most ${CALLBACK_URL_MAX} characters, a public host) notified by a signed POST, never with the result, when the task ends: succeeded, failed or cancelled; see GET /v1/tasks/{id}/webhooks`,
);
const COMMENT_MAX_ITEMS = p('max_items', 'integer', `walk comment pages (and, with replies all, reply pages) up to this many comments (-1: all, at most ${MAX_ITEMS_MAX}); paced, progress per page; limit is ignored`, {
  min: -1,
  max: MAX_ITEMS_MAX,
});

/** replies all is offered only where the platform can really page a thread's replies (or sends the whole tree). */
function repliesParam(def: CommentsAction): CatalogParam {
  const all = !!def.replies || def.wholeTree === true;
  return p(
    'replies',
    'string',
    all
      ? 'none: top-level comments only; first: the replies the platform sends with each page; all: every reply of every thread (paged, parent_id set)'
      : 'none: top-level comments only; first: the replies the platform sends with each page (this platform has no reply pages to walk)',
    { enum: all ? [...REPLIES_MODES] : REPLIES_MODES.filter((m) => m !== 'all'), default: 'first' },
  );
}
const DATE_FORMS = 'unix seconds (number or digit string), an ISO 8601 date, or a date-time with a zone';
const SINCE = p('since', 'string', `keep only what was posted at or after this time: ${DATE_FORMS}`, { accepts_number: true });
const UNTIL = p('until', 'string', `keep only what was posted at or before this time (a bare date: the whole day, UTC): ${DATE_FORMS}`, { accepts_number: true });
/** Actions whose results carry a creation time the caller may range over. */
const DATED_ACTIONS = new Set(['search', 'posts', 'comments']);

/** Params every action of this shape accepts, before the action's own. */
export function commonParams(action: string, def: ActionDef, adapter: PlatformAdapter): CatalogParam[] {
  return [...shapeParams(action, def, adapter), CALLBACK_URL];
}

function shapeParams(action: string, def: ActionDef, adapter: PlatformAdapter): CatalogParam[] {
  const cache = [FORCE, MAX_AGE, PROFILE];
  switch (def.shape) {
    case 'items': {
      if (action === 'detail') return [...cache, PREVIEW];
      const out = [LIMIT, CURSOR, ...FILTERS, PREVIEW, ...cache];
      if (DATED_ACTIONS.has(action)) out.push(SINCE, UNTIL);
      if (def.walk) out.push(MAX_ITEMS);
      if (def.categories && adapter.categories?.length) {
        const ids = adapter.categories.map((c) => c.id);
        out.push(p('category', 'string', `feed tab (GET /v1/categories?source=${adapter.id})`, { enum: ids, default: ids[0] }));
      }
      return out;
    }
    case 'comments':
      return [LIMIT, CURSOR, repliesParam(def), COMMENT_MAX_ITEMS, ...cache, SINCE, UNTIL];
    case 'download':
      // Never served from the result cache (files may have been evicted since): no force or max_age_s.
      return [
        p('query', 'string', 'the post: its URL, share link or id', { required: true }),
        p('media', 'string', 'which media of the post to store', { enum: ['video', 'image', 'any'], default: 'any' }),
        p('quality', 'string', 'best: the largest watermark-free stream; smallest: the smallest watermark-free one', { enum: ['best', 'smallest'], default: 'best' }),
        PROFILE,
      ];
    case 'write':
      return [
        p('confirm', 'boolean', 'true to really publish; without it the first call answers 409 needs_confirmation with the plan'),
        p('dry_run', 'boolean', 'validate and plan without publishing (state planned)'),
        p('idempotency_key', 'string', 'unique per intended write: a timed-out retry with the same key replays instead of posting twice'),
        PROFILE,
      ];
    default:
      return cache;
  }
}

/** Params not part of the cache key: they steer how a result is fetched, not which. */
export const NON_KEY_PARAMS = new Set(['cursor', 'force', 'max_age_s', 'callback_url']);

/** Validates raw params against a catalog entry; every message names the param. */
export function validateParams(entry: CatalogEntry, raw: unknown): Params {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ApiError('invalid_request', 'params must be an object');
  const input = raw as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    // A few names against a short list: a scan beats building a lookup table per request.
    if (!entry.params.some((x) => x.name === key)) {
      throw new ApiError('invalid_request', `params.${key}: unknown param for ${entry.name} (accepted: ${entry.params.map((x) => x.name).join(', ')})`);
    }
  }
  const out: Params = {};
  for (const spec of entry.params) {
    const v = input[spec.name];
    if (v === undefined || v === null) {
      if (spec.required) throw new ApiError('invalid_request', `params.${spec.name}: required for ${entry.name}`);
      if (spec.default !== undefined) out[spec.name] = spec.default;
      continue;
    }
    out[spec.name] = spec.name === 'since' || spec.name === 'until' ? parseDateParam(spec.name, v) : checkValue(spec, v);
  }
  if (typeof out.since === 'number' && typeof out.until === 'number' && out.since > out.until) {
    throw new ApiError('invalid_request', 'params.since: must not be later than params.until');
  }
  if (out.max_items === 0) throw new ApiError('invalid_request', 'params.max_items: must be -1 (all: the whole account, or every comment) or at least 1');
  if (typeof out.min_duration_s === 'number' && typeof out.max_duration_s === 'number' && out.min_duration_s > out.max_duration_s) {
    throw new ApiError('invalid_request', 'params.min_duration_s: must not exceed max_duration_s');
  }
  if (typeof out.profile === 'string' && !/^(pool:)?[A-Za-z0-9_.-]{1,64}$/.test(out.profile)) {
    throw new ApiError('invalid_request', 'params.profile: letters, digits, _ . - only (1 to 64); or "pool", or "pool:<name>"');
  }
  return out;
}

function checkValue(spec: CatalogParam, v: unknown): unknown {
  const name = `params.${spec.name}`;
  switch (spec.type) {
    case 'string': {
      if (typeof v !== 'string') throw new ApiError('invalid_request', `${name}: expected a string`);
      const s = v.trim();
      if (spec.required && s === '') throw new ApiError('invalid_request', `${name}: must not be empty`);
      if (s.length > STRING_MAX) throw new ApiError('invalid_request', `${name}: longer than ${STRING_MAX} characters`);
      if (spec.enum && !spec.enum.includes(s)) throw new ApiError('invalid_request', `${name}: must be one of ${spec.enum.join(', ')}`);
      return s;
    }
    case 'boolean':
      if (typeof v !== 'boolean') throw new ApiError('invalid_request', `${name}: expected true or false`);
      return v;
    case 'integer':
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new ApiError('invalid_request', `${name}: expected a ${spec.type}`);
      if (spec.type === 'integer' && !Number.isInteger(v)) throw new ApiError('invalid_request', `${name}: expected an integer`);
      if (spec.min !== undefined && v < spec.min) throw new ApiError('invalid_request', `${name}: must be at least ${spec.min}`);
      if (spec.max !== undefined && v > spec.max) throw new ApiError('invalid_request', `${name}: must be at most ${spec.max}`);
      return v;
    }
  }
}

/** Stable cache key: source, action and the params that select the result. */
export function cacheKey(source: string, action: string, params: Params): string {
  const keyParams = Object.keys(params)
    .filter((k) => !NON_KEY_PARAMS.has(k))
    .sort()
    .map((k) => [k, params[k]]);
  return `${source}.${action}:${JSON.stringify(keyParams)}`;
}
