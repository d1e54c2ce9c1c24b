import { z } from 'zod';
import { TaskListQuerySchema, TaskSubmitQuerySchema } from '../../api/routes/tasks.js';
import { DEMO_EXAMPLES } from '../../demo.js';
import type { CatalogIndex } from '../../platforms/catalog.js';
import { actionRequestSchemas } from '../catalog.js';
import { json } from '../responses.js';
import type { RouteDoc } from '../route-doc.js';
import { RESULT_SHAPES, ref } from '../schemas.js';

const TASK_ID = { id: 'the task_id a submit answered' };
const SHAPES_TABLE = [
  '| Shape | Actions | Result |',
  '|---|---|---|',
  `| A | search, posts, hot, recommended, detail | ${RESULT_SHAPES.items.component} of Item[] |`,
  `| B | comments | ${RESULT_SHAPES.comments.component} (no top-level ok: branch on source) |`,
  `| C | user | ${RESULT_SHAPES.creator.component} |`,
  `| D | trending | ${RESULT_SHAPES.trends.component} |`,
  `| E | post.create, comment.create, delete | ${RESULT_SHAPES.write.component} |`,
].join('\n');

/** The SSE events of a task stream and their data (decisions.md, Events). */
export const STREAM_EVENTS = {
  status: 'the task without its result, on every transition (a retry is one: queued, attempts + 1)',
  progress: '{items, pages} while a crawl walks pages',
  result: 'the final task, with result or error; the server then closes the stream',
} as const;

export function taskDocs(catalog: CatalogIndex): RouteDoc[] {
  const perAction = Object.keys(actionRequestSchemas(catalog));
  const examples = Object.fromEntries(
    DEMO_EXAMPLES.filter((e) => catalog.get(e.source, e.action)).map((e) => [`${e.source}.${e.action}`, { summary: `${e.source}.${e.action} (works in the sandbox: npm run demo)`, value: e }]),
  );
  return [
    {
      method: 'POST',
      path: '/v1/tasks',
      access: 'any',
      tag: 'Tasks',
      summary: 'Submit a task {source, action, params}',
      description: [
        'Reads need the `read` scope, write verbs (`post.create`, `comment.create`, `delete`) the `write` scope; `admin` implies both.',
        'The body is one of the `TaskRequest.<source>.<action>` schemas (one per catalog entry, params as the catalog lists them), or the generic `TaskRequest` form (aliases such as `x`, any letter case).',
        'An action a platform lacks is 404 `unsupported`.',
        '`params.profile: "pool"` (or `"pool:<name>"`) picks the healthiest free profile of the platform when the task is queued (a cache hit picks none; never one cooling or needing a re-login; best success rate of the last hour, then fewest queued and running tasks fleet-wide, then least recently used); the task\'s `profile` says which. The cache key keeps `"pool"`, whichever profile ran.',
        'The shape of `result` is keyed on the action:',
        '',
        SHAPES_TABLE,
      ].join('\n'),
      query: TaskSubmitQuerySchema,
      body: {
        description: 'one catalog source.action and its params',
        schema: { anyOf: [...perAction.map(ref), ref('TaskRequest')] },
        examples,
      },
      responses: {
        200: json('Task', 'finished within `wait`: the whole task, with its result'),
        202: json('TaskAccepted', 'accepted and stored (status is always queued, the state at acceptance): poll, or stream'),
        409: json('NeedsConfirmation', 'a write verb without `confirm` (and without `dry_run`): nothing was queued; re-send with confirm true'),
      },
      errors: [
        'invalid_request',
        'unsupported',
        'forbidden_scope',
        { code: 'rate_limited', status: 429, when: 'a pool whose every usable profile is cooling down (Retry-After: seconds until the first is free)' },
        { code: 'session_expired', status: 503, when: 'a pool whose every profile needs a human re-login' },
      ],
    },
    {
      method: 'GET',
      path: '/v1/tasks',
      access: 'read',
      tag: 'Tasks',
      summary: "List the caller's own tasks, newest first, without results",
      query: TaskListQuerySchema,
      responses: { 200: json('TaskList', 'one page; pass next_cursor back as cursor for the next') },
      errors: ['invalid_request'],
    },
    {
      method: 'GET',
      path: '/v1/tasks/:id',
      access: 'any',
      tag: 'Tasks',
      summary: 'Poll a task',
      description: "A task belongs to the token that submitted it; another token gets 404 (an admin token sees all). `failed` is a job error; a crawl a platform blocked is a succeeded task whose result.source is `blocked`.",
      pathParams: TASK_ID,
      responses: { 200: json('Task', 'the task; result when succeeded, error when failed') },
      errors: ['not_found'],
    },
    {
      method: 'POST',
      path: '/v1/tasks/:id/cancel',
      access: 'any',
      tag: 'Tasks',
      summary: 'Cancel a task (frees its account slot at once)',
      description: 'Idempotent: a task that already ended is returned unchanged.',
      pathParams: TASK_ID,
      responses: { 200: json('Task', 'the task after the cancel') },
      errors: ['not_found'],
    },
    {
      method: 'DELETE',
      path: '/v1/tasks/:id',
      access: 'any',
      tag: 'Tasks',
      summary: 'Cancel a task (same as POST /v1/tasks/{id}/cancel)',
      pathParams: TASK_ID,
      responses: { 200: json('Task', 'the task after the cancel') },
      errors: ['not_found'],
    },
    {
      method: 'POST',
      path: '/v1/tasks/:id/retry',
      access: 'any',
      tag: 'Tasks',
      summary: 'Retry a failed, cancelled or blocked task (same task_id, attempts + 1)',
      pathParams: TASK_ID,
      responses: { 200: json('Task', 'the task, queued again') },
      errors: ['not_found', { code: 'invalid_request', status: 409, when: 'the task is queued or running, succeeded with a result that is not blocked, or is a write (never retried)' }],
    },
    {
      method: 'GET',
      path: '/v1/tasks/:id/stream',
      access: 'any',
      tag: 'Tasks',
      summary: 'Follow a task as server-sent events',
      description: [
        'Each event has an increasing `id:`; reconnect with `Last-Event-ID` to resume after it. A comment line `: ping` comes at least every 15 s.',
        'A stream opened on a finished task sends `status` and `result` at once and closes. Events:',
        ...Object.entries(STREAM_EVENTS).map(([name, what]) => `- \`${name}\`: ${what}`),
      ].join('\n'),
      pathParams: TASK_ID,
      headers: [{ name: 'Last-Event-ID', in: 'header', required: false, description: 'resume after this event id', schema: { type: 'string', pattern: '^\\d{1,12}$' } }],
      query: z.object({ last_event_id: z.string().regex(/^\d{1,12}$/).optional().describe('the same as the Last-Event-ID header, for clients that cannot set it') }),
      responses: {
        200: {
          description: 'an event stream: `event: status|progress|result`, `id: <n>`, `data: <JSON>`',
          content: { 'text/event-stream': { schema: { type: 'string' }, example: 'id: 1\nevent: status\ndata: {"task_id":"t_…","status":"running",…}\n\n' } },
        },
      },
      errors: ['not_found', 'rate_limited'],
      extensions: {
        'x-events': Object.fromEntries(Object.keys(STREAM_EVENTS).map((name) => [name, name === 'progress' ? '#/components/schemas/Progress' : '#/components/schemas/Task'])),
      },
    },
  ];
}
