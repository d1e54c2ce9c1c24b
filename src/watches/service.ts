import { randomBytes } from 'node:crypto';
import { ApiError, type ErrorBody } from '../domain/errors.js';
import { CALLBACK_URL_MAX, EVERY_MAX_S, EVERY_MIN_S, WATCH_ACTIONS } from '../domain/watch.js';
import type { CatalogIndex } from '../platforms/catalog.js';
import type { Store } from '../store/types.js';
import type { WatchPatch, WatchRow, WatchRunRow, WatchStore } from '../store/watches.js';
import type { Caller } from '../tasks/service.js';
import { validateParams } from '../tasks/params.js';
import { periodS, watchNewItems } from './new-items.js';
import { poolOf } from '../identity/identities.js';

export const WATCH_ID = /^w_[0-9a-z]{9}[0-9a-f]{16}$/;
const CREATE_FIELDS = ['source', 'action', 'params', 'every_s', 'callback_url', 'full_page', 'paused'];
const PATCH_FIELDS = ['every_s', 'params', 'paused', 'callback_url', 'full_page'];
/** A watch always reads the first page, live: these would contradict it. */
const RUN_OWNED_PARAMS = ['cursor', 'force', 'max_age_s'];
const RECENT_RUNS = 10;

const isAdmin = (c: Caller) => c.scopes.includes('admin');

let lastIdAt = 0;
/** Unguessable ids in creation order (the list pages by id): the time part never repeats within a process. */
export function newWatchId(): string {
  lastIdAt = Math.max(Date.now(), lastIdAt + 1);
  return `w_${lastIdAt.toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`;
}

/** Creating, reading, changing and deleting watches; the scheduler (scheduler.ts) runs them. */
export class WatchService {
  constructor(
    private readonly watches: WatchStore,
    private readonly store: Store,
    private readonly catalog: CatalogIndex,
    private readonly now: () => number,
    private readonly maxPerOwner: number,
    /** The webhooks' judgement of a callback URL (scheme, host, resolved addresses), as a task's gets at submit. */
    private readonly judge?: (url: string) => Promise<string>,
  ) {}

  private async callback(v: unknown): Promise<string | undefined> {
    if (v === undefined || !this.judge) return callbackUrl(v);
    if (typeof v !== 'string') throw new ApiError('invalid_request', 'callback_url: expected a string');
    try {
      return await this.judge(v);
    } catch (e) {
      if (e instanceof ApiError) throw new ApiError(e.code, e.message.replace(/^params\.callback_url/, 'callback_url'));
      throw e;
    }
  }

  async create(body: unknown, caller: Caller): Promise<WatchRow> {
    const b = objectBody(body, CREATE_FIELDS);
    const { source, action, entry } = this.entryOf(b.source, b.action);
    const params = await this.params(entry, source, b.params);
    const every = everyS(b.every_s, true) as number;
    const callback = await this.callback(b.callback_url);
    const now = this.now();
    const w: WatchRow = {
      id: newWatchId(),
      owner: caller.owner,
      source,
      action,
      params: JSON.stringify(params),
      every_s: every,
      callback_url: callback ?? null,
      paused: bool(b.paused, 'paused') ?? false,
      full_page: bool(b.full_page, 'full_page') ?? false,
      // The first run is due at once: it sets the baseline (all its items are new).
      next_run_at: now,
      failures: 0,
      last_run_at: null,
      last_task_id: null,
      last_error: null,
      last_error_at: null,
      last_new_count: null,
      created_at: now,
    };
    if (!(await this.watches.insert(w, this.maxPerOwner))) {
      throw new ApiError('invalid_request', `watch limit reached: a token holds at most ${this.maxPerOwner} watches; delete one first`);
    }
    return w;
  }

  async list(q: { all: boolean; limit: number; before?: string }, caller: Caller): Promise<{ watches: WatchRow[]; next?: string }> {
    if (q.all && !isAdmin(caller)) throw new ApiError('forbidden_scope', "all=true lists every token's watches and needs an admin token");
    const rows = await this.watches.list({ owner: q.all ? undefined : caller.owner, before: q.before, limit: q.limit + 1 });
    const more = rows.length > q.limit;
    const page = more ? rows.slice(0, q.limit) : rows;
    return { watches: page, next: more ? page[page.length - 1].id : undefined };
  }

  /** The watch, if this caller may see it: another token's watch answers exactly like an unknown id. */
  async get(id: string, caller: Caller): Promise<WatchRow> {
    const w = WATCH_ID.test(id) ? await this.watches.get(id) : undefined;
    if (!w || !(isAdmin(caller) || (w.owner !== null && w.owner === caller.owner))) throw new ApiError('not_found', `no watch ${JSON.stringify(id.slice(0, 64))}`);
    return w;
  }

  recentRuns(id: string): Promise<WatchRunRow[]> {
    return this.watches.runs(id, { limit: RECENT_RUNS, newest: true });
  }

  async update(id: string, body: unknown, caller: Caller): Promise<WatchRow> {
    const w = await this.get(id, caller);
    const b = objectBody(body, PATCH_FIELDS);
    const patch: WatchPatch = {};
    if (b.params !== undefined) patch.params = JSON.stringify(await this.params(this.entryOf(w.source, w.action).entry, w.source, b.params));
    const every = everyS(b.every_s, false);
    if (every !== undefined) {
      patch.every_s = every;
      // The new period counts from the last run (or now, before the first): a shorter one may be due at once.
      patch.next_run_at = (w.last_run_at ?? this.now()) + periodS(every, w.failures) * 1000;
    }
    if (b.callback_url === null) patch.callback_url = null;
    else if (b.callback_url !== undefined) patch.callback_url = await this.callback(b.callback_url);
    patch.paused = bool(b.paused, 'paused');
    patch.full_page = bool(b.full_page, 'full_page');
    return (await this.watches.update(w.id, patch)) ?? w;
  }

  /** The watch (if this caller may see it) and every new item its runs collected, oldest run first, streamed. */
  async newItems(id: string, caller: Caller): Promise<{ watch: WatchRow; items: AsyncIterable<object> }> {
    const w = await this.get(id, caller);
    return { watch: w, items: watchNewItems(this.store, w.id, this.watches) };
  }

  async delete(id: string, caller: Caller): Promise<void> {
    const w = await this.get(id, caller);
    await this.watches.delete(w.id);
  }

  /** The same checks and messages as a task's submit, then the actions a watch can repeat. */
  private entryOf(rawSource: unknown, rawAction: unknown) {
    if (typeof rawSource !== 'string' || !rawSource.trim()) throw new ApiError('invalid_request', 'source: required (see GET /v1/task-sources)');
    if (typeof rawAction !== 'string' || !rawAction.trim()) throw new ApiError('invalid_request', 'action: required (see GET /v1/task-sources)');
    const source = rawSource.trim().toLowerCase();
    const action = rawAction.trim().toLowerCase();
    const found = this.catalog.get(source, action);
    if (!found) {
      const known = this.catalog.get(source, 'x') !== undefined || this.catalog.entries.some((e) => e.group === source);
      throw new ApiError('unsupported', known ? `${source} has no action "${action}" (see GET /v1/task-sources)` : `unknown source "${source}" (see GET /v1/task-sources)`);
    }
    if (!(WATCH_ACTIONS as readonly string[]).includes(action)) {
      throw new ApiError('invalid_request', `action: a watch repeats ${WATCH_ACTIONS.join(', ')}; "${action}" is not one of them (writes and downloads are never watched)`);
    }
    return { source: found.adapter.id, action, entry: found.entry };
  }

  private async params(entry: Parameters<typeof validateParams>[0], platform: string, raw: unknown) {
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
      for (const k of RUN_OWNED_PARAMS) {
        if (k in raw) throw new ApiError('invalid_request', `params.${k}: not for a watch (each run reads the first page, live)`);
      }
      // The watch's own callback_url (judged when set) is what each run carries; one in params would skip that judgement.
      if ('callback_url' in raw) throw new ApiError('invalid_request', 'params.callback_url: give it as the watch\'s callback_url (top level)');
    }
    const params = validateParams(entry, raw);
    for (const k of RUN_OWNED_PARAMS) delete params[k];
    const profile = params.profile as string | undefined;
    // A pool ("pool", "pool:<name>") is picked afresh for each run, when the run is queued.
    if (profile !== undefined && profile !== 'default' && !poolOf(profile) && !(await this.store.profileGet(platform, profile))) {
      throw new ApiError('invalid_request', `params.profile: no stored profile ${platform}/${profile}; see GET /v1/profiles`);
    }
    return params;
  }
}

function objectBody(body: unknown, fields: string[]): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_request', `body: expected a JSON object with ${fields.join(', ')}`);
  for (const k of Object.keys(body)) {
    if (!fields.includes(k)) throw new ApiError('invalid_request', `body.${k}: unknown field (expected ${fields.join(', ')})`);
  }
  return body as Record<string, unknown>;
}

function everyS(v: unknown, required: boolean): number | undefined {
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < EVERY_MIN_S || v > EVERY_MAX_S) {
    throw new ApiError('invalid_request', `every_s: ${required && v === undefined ? 'required, ' : ''}whole seconds from ${EVERY_MIN_S} (15 min) to ${EVERY_MAX_S} (7 days)`);
  }
  return v;
}

function bool(v: unknown, name: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new ApiError('invalid_request', `${name}: expected true or false`);
  return v;
}

/** Without the webhooks' judge (unit setups), the URL's shape alone; the sender judges it again at delivery. */
function callbackUrl(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  const bad = () => new ApiError('invalid_request', `callback_url: an absolute https URL of at most ${CALLBACK_URL_MAX} characters`);
  if (typeof v !== 'string' || v.length > CALLBACK_URL_MAX) throw bad();
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw bad();
  }
  if (u.protocol !== 'https:' || !u.hostname || u.username || u.password) throw bad();
  return v;
}

/** The watch as the API answers it. */
export function watchView(w: WatchRow, runs?: WatchRunRow[]): Record<string, unknown> {
  const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());
  const out: Record<string, unknown> = {
    watch_id: w.id,
    source: w.source,
    action: w.action,
    params: JSON.parse(w.params) as unknown,
    every_s: w.every_s,
    callback_url: w.callback_url ?? undefined,
    paused: w.paused,
    full_page: w.full_page,
    created_at: iso(w.created_at),
    next_run_at: iso(w.next_run_at),
    last_run_at: iso(w.last_run_at),
    last_task_id: w.last_task_id ?? undefined,
    last_new_count: w.last_new_count ?? undefined,
    failures: w.failures,
    last_error: w.last_error ? (JSON.parse(w.last_error) as ErrorBody) : undefined,
    last_error_at: iso(w.last_error_at),
  };
  if (runs) {
    out.recent_runs = runs.map((r) => ({
      task_id: r.task_id,
      new_count: r.new_count ?? undefined,
      error: r.error ? (JSON.parse(r.error) as ErrorBody) : undefined,
      finished_at: iso(r.finished_at),
    }));
  }
  return out;
}
