import type { ReplayRules } from '../../platforms/types.js';
import type { Recording } from './har.js';

/** Params that are signatures, timestamps or cache-busters on many platforms. */
const DEFAULT_VOLATILE = ['_', '_t', 'ts', 'timestamp', 'nonce', 'sign', 'signature', 'w_rid', 'wts', 'a_bogus', 'X-Bogus', 'msToken', 'x-s', 'x-t', 'callback', 'jsonp'];
/** Params that name the resource: a recording carrying another value is never served. */
const DEFAULT_IDENTIFYING = [
  'id', 'ids', 'q', 'query', 'keyword', 'keywords', 'search_query', 'uid', 'mid', 'bvid', 'aid', 'oid', 'user_id', 'userId', 'username',
  'screen_name', 'handle', 'actor', 'uri', 'url', 'videoId', 'video_id', 'channel_id', 'sec_user_id', 'aweme_id', 'note_id', 'status_id',
  'containerid', 'value', 'browseId', 'variables.id', 'variables.userId', 'variables.screen_name',
];
/** Paging params: a recording of another page is never served. */
const DEFAULT_CURSOR = ['cursor', 'page', 'pn', 'page_num', 'since_id', 'max_id', 'offset', 'continuation', 'after', 'before', 'pcursor', 'min_id', 'page_token', 'pageToken', 'variables.cursor'];

export interface CompiledRules {
  volatile: Set<string>;
  identifying: Set<string>;
  cursor: Set<string>;
  /** Opaque page tokens that name one page of one feed: equal on both sides, they identify too. */
  identifyingCursor: Set<string>;
  routes: ReadonlyArray<readonly [RegExp, string]>;
}

export function compileRules(rules?: ReplayRules): CompiledRules {
  const cursor = new Set([...DEFAULT_CURSOR, ...(rules?.cursor ?? [])]);
  const identifying = new Set([...DEFAULT_IDENTIFYING, ...(rules?.identifying ?? [])]);
  const volatile = new Set([...DEFAULT_VOLATILE, ...(rules?.volatile ?? [])]);
  // An adapter may demote a default: naming a param volatile wins over the defaults.
  for (const v of rules?.volatile ?? []) {
    identifying.delete(v);
    cursor.delete(v);
  }
  for (const c of rules?.cursor ?? []) identifying.delete(c);
  const identifyingCursor = new Set((rules?.identifyingCursor ?? []).filter((c) => cursor.has(c)));
  return { volatile, identifying, cursor, identifyingCursor, routes: rules?.routes ?? [] };
}

export interface ReplayRequest {
  method: string;
  url: URL;
  params: Map<string, string>;
}

export type MatchResult = { recording: Recording; score: number } | { miss: string };

/**
 * Among recordings the params rank equally, the one whose volatile params look most like the
 * request's (present on both, or absent on both) is closer: a first page recorded bare beats an
 * older page whose `before` the adapter ignores. Deterministic, so a forced repeat gets the same page.
 */
function volatileLikeness(req: Map<string, string>, rec: Map<string, string>, rules: CompiledRules): number {
  let n = 0;
  for (const k of rules.volatile) {
    const a = req.get(k);
    const b = rec.get(k);
    if (a === undefined && b === undefined) continue;
    if (a === undefined || b === undefined) n--;
    else n += a === b ? 2 : 1;
  }
  return n;
}

/**
 * What a request and a recording must share before their params are compared (HEAD is served by GET).
 * A platform's route aliases rewrite `host/path` first (a rotating GraphQL query id, a host's former name).
 */
export function routeKey(method: string, url: URL, rules?: Pick<CompiledRules, 'routes'>): string {
  let route = `${url.host.toLowerCase()}${normPath(url.pathname)}`;
  for (const [pattern, as] of rules?.routes ?? []) route = route.replace(pattern, as);
  return `${method === 'HEAD' ? 'GET' : method} ${route}`;
}

/** Picks the best recording for a request, or says why none fits. */
export function matchRequest(req: ReplayRequest, recordings: readonly Recording[], rules: CompiledRules, uses: Map<Recording, number>): MatchResult {
  const route = routeKey(req.method, req.url, rules);
  let best: { recording: Recording; score: number; likeness: number } | undefined;
  let nearest = '';
  for (const rec of recordings) {
    if (routeKey(rec.method, rec.url, rules) !== route) continue;
    const verdict = compareParams(req.params, rec.params, rules);
    if (typeof verdict === 'string') {
      nearest ||= `${rec.file.split('/').pop()}#${rec.index}: ${verdict}`;
      continue;
    }
    const likeness = volatileLikeness(req.params, rec.params, rules);
    // Then the less used of equals, so a request recorded several times in a row (a wall, then the
    // page) is answered in order; then the first recorded.
    if (
      !best ||
      verdict > best.score ||
      (verdict === best.score && (likeness > best.likeness || (likeness === best.likeness && (uses.get(rec) ?? 0) < (uses.get(best.recording) ?? 0))))
    ) {
      best = { recording: rec, score: verdict, likeness };
    }
  }
  if (best) return { recording: best.recording, score: best.score };
  return { miss: nearest ? `nearest recording ${nearest}` : `no recording of ${route}` };
}

/** A score when the params are compatible, or the reason they are not. */
export function compareParams(req: Map<string, string>, rec: Map<string, string>, rules: CompiledRules): number | string {
  let idAgree = 0;
  let reqHasId = false;
  let recHasId = false;
  let equal = 0;
  let differ = 0;
  let oneSided = 0;
  const keys = new Set([...req.keys(), ...rec.keys()]);
  for (const k of keys) {
    if (rules.volatile.has(k)) continue;
    const a = req.get(k);
    const b = rec.get(k);
    if (rules.cursor.has(k)) {
      if (a !== b && !(firstPage(a) && firstPage(b) && (a === undefined || b === undefined))) return `${k} differs (${a ?? 'absent'} vs recorded ${b ?? 'absent'})`;
      if (a !== undefined) {
        equal++;
        if (rules.identifyingCursor.has(k)) idAgree++;
      }
      continue;
    }
    if (rules.identifying.has(k)) {
      if (a !== undefined) reqHasId = true;
      if (b !== undefined) recHasId = true;
      if (a !== undefined && b !== undefined) {
        if (a !== b) return `${k} differs (${a} vs recorded ${b})`;
        idAgree++;
      }
      continue;
    }
    if (a === undefined || b === undefined) oneSided++;
    else if (a === b) equal++;
    else differ++;
  }
  if (reqHasId && idAgree === 0) return recHasId ? 'no identifying param in common' : 'the recording carries none of the identifying params';
  return idAgree * 100 + equal * 10 - differ * 3 - oneSided;
}

/** An absent paging param and an explicit first page (`''`, `0`, `1`, a JSON `null`) ask for the same page. */
function firstPage(v: string | undefined): boolean {
  return v === undefined || v === '' || v === '0' || v === '1' || v === 'null';
}

function normPath(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}
