import type { CatalogEntry } from '../domain/catalog.js';
import type { PlatformAdapter } from '../platforms/types.js';
import { DEFAULT_LIMIT, LIMIT_MAX, MAX_ITEMS_MAX } from '../tasks/params.js';
import { WAIT_MAX_MS } from '../tasks/service.js';

/** The plain-text guide for agents and scripts, generated from the catalog so it cannot drift. */
export function agentGuide(entries: readonly CatalogEntry[], adapters: readonly PlatformAdapter[], baseUrl: string): string {
  const base = baseUrl || 'http://localhost:8080';
  const lines: string[] = [];
  const out = (s = '') => lines.push(s);
  out('SOCIAL CRAWLER API - GUIDE FOR AGENTS AND SCRIPTS');
  out('');
  out(`Base URL: ${base}   All API routes are under /v1. Bodies are JSON.`);
  out(`Machine-readable: ${base}/v1/openapi.json (OpenAPI 3.1, every route and every source.action's params).`);
  out('Auth: header "Authorization: Bearer <token>" (capital B). Public: GET /v1/health, /v1/media, /v1/preview, /v1/openapi.json, /docs.');
  out('Scopes: read (crawl), write (publish), admin (tokens; implies both). Missing/invalid token: 401 auth_required; wrong scope: 403 forbidden_scope.');
  out('Tasks belong to the token that submitted them: another token gets 404 not_found. GET /v1/tasks lists your own, newest first.');
  out('MCP: POST /mcp (streamable HTTP, same bearer token) offers all this as tools: one per source.action (weibo.search -> weibo_search), get_task, cancel_task, list_sources.');
  out('');
  out('HOW TO CRAWL');
  out(`1. POST /v1/tasks?wait=${WAIT_MAX_MS}  body {"source":"<platform>","action":"<action>","params":{...}}`);
  out(`   Finished within wait ms -> 200 with the whole task; otherwise 202 {task_id,status:"queued"}. wait is 0..${WAIT_MAX_MS}.`);
  out('2. GET /v1/tasks/{task_id} until status is succeeded, failed or cancelled (or stream: GET /v1/tasks/{id}/stream, SSE).');
  out('3. Read task.result. Branch on result.source and result.error.code, never on message or an empty list:');
  out('   live = crawled now; cache = served from cache (see age_s); empty = the platform honestly said no results;');
  out('   blocked = captcha/risk control (ok false, retryable: retry later, do not re-login).');
  out('   error.code session_expired = the stored login lapsed (see GET /v1/profiles); not_found = gone; rate_limited/timeout/upstream_error = retry later.');
  out('   A task with status failed is a job error (task.error); a blocked crawl is a succeeded task whose result.source is blocked.');
  out('Other task routes: POST /v1/tasks/{id}/cancel (or DELETE /v1/tasks/{id}), POST /v1/tasks/{id}/retry (failed, cancelled or blocked only).');
  out('Many at once: POST /v1/tasks/batch {"tasks":[{source,action,params},...]} (1..500, reads only) -> 202 {batch_id, accepted, refused:[{index,error}], tasks:[{index,task_id,status}]}.');
  out('  Each entry is handled like its own POST /v1/tasks; fix and resend only the refused ones. GET /v1/batches/{id} -> counts per status and task_ids;');
  out('  POST /v1/batches/{id}/retry retries only retryable failures and blocked results (the answer says what it skipped and why).');
  out('Export a succeeded task: GET /v1/tasks/{id}/export?format=jsonl|csv (streamed; items, comments, trends or the author as rows). 409 until it succeeded.');
  out('SSE events: status, progress {items,pages; download also bytes,files,files_total}, result (then the stream closes); ": ping" comments; resume with Last-Event-ID.');
  out('  A finished task streams status and result at once; after a retry the stream follows the new attempt.');
  out('Every error body: {ok:false, error:{code, message, retryable}}. Wrong method: 405 with Allow.');
  out('');
  out('WEBHOOKS (instead of polling)');
  out('  params.callback_url (any action): an https URL on a public host, at most 2048 characters, no user:password. When the task ends');
  out('  (succeeded, failed, cancelled; a cache hit too) the service POSTs {event:"task.finished", task_id, status, source, action, attempts,');
  out('  finished_at, result_source?, count?, error?, watch_id?}: never the result, so GET /v1/tasks/{task_id} for it.');
  out('  Headers: X-Crawler-Signature t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> (secret: GET /v1/webhooks/secret, admin),');
  out('  X-Crawler-Delivery (same on every attempt: dedupe on it; delivery is at least once), X-Crawler-Event.');
  out('  Answer 2xx within 10 s; anything else (a redirect too) is retried with backoff for 24 h. Log: GET /v1/tasks/{id}/webhooks.');
  out('  A private, loopback or link-local target (or a name resolving to one) is 400 invalid_request naming params.callback_url.');
  out('');
  out('RESULT SHAPES');
  out('  search, posts, hot, recommended, detail -> {ok, source, count, items: Item[], next_cursor?, age_s?, ms, error?, warnings?}');
  out('  comments -> {source, total, has_more, cursor?, ms, items: Comment[]}   (no top-level ok)');
  out('  user -> {ok, source, items: [], ms, data: {platform, author}}');
  out('  trending -> {ok, source, items: [], ms, data: {platform, trends: [{word, source, rank, hot_value?, url?}]}}');
  out('  download -> shape A with the one item plus files: [{id, url, kind, mime, bytes, sha256, w?, h?, duration_s?, source_quality, name}]');
  out('    params: query, media video|image|any, quality best|smallest. files[].url (/v1/files/{id}?exp=&sig=) opens without a token (Range, HEAD);');
  out('    source_quality names the stream and says when it is watermarked. Evicted by the quota later: 404 not_found. POST /v1/files/{id}/pin keeps one (write).');
  out('    query takes whatever detail takes. Media offered only as an HLS playlist (bluesky videos, some X videos) is upstream_error naming it; a stream the platform withholds is its error code with the reason.');
  out('Item: id "<provider>:<native_id>", type video|image|text, provider, title?, text?, author, author_id, author_handle, author_url,');
  out('  url, thumb (/v1/media?u=...), media [{kind, url, w, h, duration_s}], preview?, ts (unix s), duration_s?, aspect?, stats {likes, comments, shares, views}, provenance.');
  out('Comment: cid, text, likes, reply_total, user_id, handle, user_name, created_at, source, url?, parent_id? (set on threaded replies).');
  out('Media URLs are service-hosted (/v1/media?u=...); never fetch platform CDNs directly. Video URLs are signed (exp, sig): use them as given, no token needed.');
  out('');
  out('WATCHES (collect only new items on a schedule)');
  out('  POST /v1/watches {"source","action","params","every_s"} (scope read; actions posts, search, comments, hot, trending; every_s 900..604800).');
  out('  Params are checked as for a task (no cursor, force or max_age_s). 201 with the watch; the first run is due at once and its items are all new.');
  out('  Each run is an ordinary task of yours (force: true), queued behind interactive tasks. Its result keeps its shape with only new items');
  out('  (Item.id, Comment.cid, Trend.word not seen before) and result.watch {watch_id, new_count, seen_count}; full_page: true keeps every item');
  out('  and names the new ones in result.watch.new_ids. GET /v1/watches/{id}: next_run_at, last_run_at, last_task_id, last_new_count, failures,');
  out('  last_error, recent_runs. A failed run (failed task, blocked or error result) doubles the period, capped at 8 h; a success resets it.');
  out('  GET /v1/watches lists yours; PATCH /v1/watches/{id} {every_s, params, paused, callback_url, full_page}; DELETE removes it. Others\' watches: 404.');
  out('');
  out('COMMON PARAMS');
  out(`  limit: 1..${LIMIT_MAX}, default ${DEFAULT_LIMIT}.  cursor: pass back next_cursor (comments: cursor) unchanged, with the same source, action, query and category; bypasses cache.`);
  out(`  max_items (posts): walk a creator's back catalogue; -1 = whole account, else 1..${MAX_ITEMS_MAX}; paced, can take minutes.`);
  out(`  max_items (comments): walk comment pages (with replies all, reply pages too) up to that many comments; -1 = all (at most ${MAX_ITEMS_MAX}); limit is then ignored.`);
  out('  replies (comments): none = top-level only; first (default) = what the pages carry; all = every thread paged, each reply right after its root with parent_id.');
  const noReplyPages = entries.filter((e) => e.name.endsWith('.comments') && e.params.some((p) => p.name === 'replies' && !p.enum?.includes('all'))).map((e) => e.group);
  if (noReplyPages.length) out(`    No reply pages to walk on ${noReplyPages.join(', ')}: replies all there is 400 invalid_request.`);
  out('    A stopped walk keeps its comments, says why in warnings, and returns a cursor that resumes inside the thread it stopped in.');
  out('  force: true bypasses the cache.  max_age_s: accept a cached result only if fresher.  profile: stored login to use (default "default").');
  out('  profile "pool" (or "pool:<name>"): the service picks a healthy, free profile of the platform; the task\'s "profile" field says which.');
  out('    All of them cooling -> 429 rate_limited (honour Retry-After); all needing a re-login -> 503 session_expired; no such pool -> 400.');
  out('  Filters: media video|image|any, min_duration_s, max_duration_s, orientation landscape|portrait|square, min_width, min_height.');
  out('  callback_url: notify this https URL when the task ends (see WEBHOOKS); not part of the cache key.');
  out('  since, until (search, posts, comments): unix seconds or ISO 8601 ("2024-05-01", "2024-05-01T08:00:00+08:00"); a bare until date takes the whole day (UTC).');
  out('    Items outside the range are dropped (ones without a time too, counted in warnings); a posts walk stops once a whole page is older than since.');
  out('  Unknown params, wrong types and out-of-range values -> 400 invalid_request naming the param. Unknown source/action -> 404 unsupported.');
  out('');
  out('PLATFORMS AND ACTIONS (generated from GET /v1/task-sources)');
  for (const a of adapters) {
    out('');
    out(`${a.id} (${a.name}, ${a.region}; auth: ${a.auth})${a.categories?.length ? `; categories: ${a.categories.map((c) => c.id).join(', ')}` : ''}`);
    for (const e of entries.filter((x) => x.group === a.id)) {
      out(`  ${e.name}: ${e.summary}`);
      const own = e.params.filter((p) => p.required || !COMMON.has(p.name));
      for (const p of own) {
        const bits = [p.type, p.required ? 'required' : 'optional'];
        if (p.enum) bits.push(`one of ${p.enum.join('|')}`);
        if (p.default !== undefined) bits.push(`default ${JSON.stringify(p.default)}`);
        out(`      ${p.name} (${bits.join(', ')}): ${p.description}`);
      }
      const common = e.params.filter((p) => !p.required && COMMON.has(p.name)).map((p) => p.name);
      if (common.length) out(`      also: ${common.join(', ')}`);
    }
  }
  out('');
  out('EXAMPLE');
  const example = entries.find((e) => e.name.endsWith('.posts')) ?? entries[0];
  if (example) {
    const [src, act] = example.name.split('.');
    out(`  curl -s -X POST "${base}/v1/tasks?wait=8000" -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\`);
    out(`       -d '{"source":"${src}","action":"${act}","params":{"query":"<creator or post reference>","limit":10}}'`);
  }
  out('');
  return lines.join('\n');
}

const COMMON = new Set([
    'limit', 'cursor', 'force', 'max_age_s', 'profile', 'media', 'min_duration_s', 'max_duration_s', 'orientation', 'min_width', 'min_height', 'preview', 'max_items', 'replies', 'since', 'until', 'callback_url',
]);
