import { WatchListQuerySchema } from '../../api/routes/watches.js';
import { BACKOFF_CAP_S, EVERY_MIN_S, WATCH_ACTIONS } from '../../domain/watch.js';
import { json } from '../responses.js';
import type { RouteDoc } from '../route-doc.js';
import { ref } from '../schemas.js';

const WATCH_ID = { id: 'the watch_id a create answered' };
const NOT_FOUND = { code: 'not_found', status: 404, when: "no such watch, or another token's (an admin token sees all)" } as const;

export function watchDocs(): RouteDoc[] {
  return [
    {
      method: 'POST',
      path: '/v1/watches',
      access: 'read',
      tag: 'Watches',
      summary: 'Watch a feed: repeat a source.action every every_s seconds and keep only the items not seen before',
      description: [
        `Actions: ${WATCH_ACTIONS.join(', ')}. source, action and params are checked exactly as a task's (an action the platform lacks is 404 \`unsupported\`); cursor, force and max_age_s are refused (each run reads the first page, live).`,
        `every_s: ${EVERY_MIN_S} s (15 min) to 7 days. The first run is due at once and all its items are new.`,
        'Each run is an ordinary task of the token (force: true), queued behind interactive tasks; its result keeps its shape (A, B or D) with only the new items and a `watch` object {watch_id, new_count, seen_count, new_ids with full_page}.',
        `A failed run (status failed, or a blocked/error result) doubles the period, capped at ${BACKOFF_CAP_S / 3600} h; the watch shows last_error; a success resets it. Seen ids are kept per watch (the newest 20,000).`,
      ].join('\n\n'),
      body: { schema: ref('WatchCreateRequest') },
      responses: { 201: json('Watch', 'stored; due at once') },
      errors: ['invalid_request', 'unsupported', { code: 'invalid_request', status: 400, when: 'the token already holds the most watches allowed (CRAWLER_WATCH_MAX_PER_OWNER, default 1000)' }],
    },
    {
      method: 'GET',
      path: '/v1/watches',
      access: 'read',
      tag: 'Watches',
      summary: "List the caller's watches, newest first",
      query: WatchListQuerySchema,
      responses: { 200: json('WatchList', 'one page; pass next_cursor back as cursor for the next') },
      errors: ['invalid_request'],
    },
    {
      method: 'GET',
      path: '/v1/watches/:id',
      access: 'read',
      tag: 'Watches',
      summary: 'A watch: its schedule, last run, failures, last error and recent runs',
      pathParams: WATCH_ID,
      responses: { 200: json('Watch', 'the watch with recent_runs') },
      errors: [NOT_FOUND],
    },
    {
      method: 'PATCH',
      path: '/v1/watches/:id',
      access: 'read',
      tag: 'Watches',
      summary: 'Change every_s, params, paused, callback_url or full_page',
      description: 'A new every_s counts from the last run (a shorter period may be due at once). Resuming a paused watch that came due meanwhile runs it once.',
      pathParams: WATCH_ID,
      body: { schema: ref('WatchPatchRequest') },
      responses: { 200: json('Watch', 'the watch after the change') },
      errors: ['invalid_request', NOT_FOUND],
    },
    {
      method: 'DELETE',
      path: '/v1/watches/:id',
      access: 'read',
      tag: 'Watches',
      summary: 'Delete a watch with its seen ids (its run tasks stay until purged)',
      pathParams: WATCH_ID,
      responses: { 200: json('WatchDeleted', 'deleted') },
      errors: [NOT_FOUND],
    },
  ];
}
