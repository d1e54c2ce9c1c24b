import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../domain/errors.js';
import { TASK_STATUSES } from '../../domain/task.js';
import { WAIT_MAX_MS, type Caller, type ListQuery } from '../../tasks/service.js';
import { NeedsConfirmation } from '../../tasks/writes.js';
import { isFinished, taskJson } from '../../tasks/serialize.js';
import type { ApiDeps } from '../context.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Query of POST /v1/tasks, as documented; parseWait enforces it with the spec's messages. */
export const TaskSubmitQuerySchema = z.object({
  wait: z.int().min(0).max(WAIT_MAX_MS).optional().describe(`milliseconds to wait for the result inline (0 to ${WAIT_MAX_MS}); finished in time: 200 with the whole task, else 202`),
});

function parseWait(raw: unknown): number {
  if (raw === undefined || raw === '') return 0;
  if (typeof raw !== 'string' || !/^\d{1,6}$/.test(raw)) throw new ApiError('invalid_request', `wait: milliseconds from 0 to ${WAIT_MAX_MS}`);
  const ms = Number(raw);
  if (ms > WAIT_MAX_MS) throw new ApiError('invalid_request', `wait: at most ${WAIT_MAX_MS} ms`);
  return ms;
}

export const callerOf = (req: FastifyRequest): Caller => ({ owner: req.tokenId ?? null, scopes: req.tokenScopes ?? [] });

const LIST_DEFAULT = 24;
const LIST_MAX = 100;
const STATUSES = new Set<string>(TASK_STATUSES);
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
// NAME is matched after lowercasing: what a caller may send is the same in any case.
const NAME_ANY_CASE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const LIST_CURSOR = /^t_[0-9a-z]{9}[0-9a-f]{16}$/;

/** Query of GET /v1/tasks, as documented; parseListQuery enforces it with the spec's messages. */
export const TaskListQuerySchema = z.object({
  status: z.enum(TASK_STATUSES).optional(),
  source: z.string().regex(NAME_ANY_CASE).optional().describe('a platform name, any case (see GET /v1/task-sources)'),
  action: z.string().regex(NAME_ANY_CASE).optional().describe('an action name, any case (see GET /v1/task-sources)'),
  limit: z.int().min(1).max(LIST_MAX).default(LIST_DEFAULT),
  cursor: z.string().regex(LIST_CURSOR).optional().describe("a previous page's next_cursor, unchanged"),
  all: z.enum(['true', 'false']).default('false').describe("admin: every owner's tasks, not only the caller's"),
});
const LIST_KEYS = Object.keys(TaskListQuerySchema.shape);

function parseListQuery(q: Record<string, unknown>): ListQuery {
  const one = (name: string): string | undefined => {
    const v = q[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw new ApiError('invalid_request', `${name}: give it once`);
    return v;
  };
  for (const k of Object.keys(q)) {
    if (!LIST_KEYS.includes(k)) throw new ApiError('invalid_request', `${k}: unknown query parameter (${LIST_KEYS.join(', ')})`);
  }
  const status = one('status');
  if (status !== undefined && !STATUSES.has(status)) throw new ApiError('invalid_request', 'status: one of queued, running, succeeded, failed, cancelled');
  const source = one('source')?.toLowerCase();
  if (source !== undefined && !NAME.test(source)) throw new ApiError('invalid_request', 'source: a platform name (see GET /v1/task-sources)');
  const action = one('action')?.toLowerCase();
  if (action !== undefined && !NAME.test(action)) throw new ApiError('invalid_request', 'action: an action name (see GET /v1/task-sources)');
  const rawLimit = one('limit');
  if (rawLimit !== undefined && (!/^\d{1,3}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > LIST_MAX)) {
    throw new ApiError('invalid_request', `limit: 1 to ${LIST_MAX}`);
  }
  const cursor = one('cursor');
  if (cursor !== undefined && !LIST_CURSOR.test(cursor)) throw new ApiError('invalid_request', 'cursor: pass back next_cursor unchanged');
  const all = one('all');
  if (all !== undefined && all !== 'true' && all !== 'false') throw new ApiError('invalid_request', 'all: true or false');
  return { status, source: source === 'x' ? 'twitter' : source, action, limit: rawLimit === undefined ? LIST_DEFAULT : Number(rawLimit), before: cursor, all: all === 'true' };
}

export function taskRoutes(app: FastifyInstance, d: ApiDeps): void {
  // Scopes are checked per action in submit: reads need read, write verbs need write (admin implies both).
  app.post('/v1/tasks', { config: { scope: 'any' } }, async (req, reply) => {
    const wait = parseWait((req.query as Record<string, unknown>).wait);
    const body = req.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_request', 'body: expected a JSON object {source, action, params}');
    const { source, action, params, ...rest } = body as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length) throw new ApiError('invalid_request', `body.${extra[0]}: unknown field (expected source, action, params)`);
    let row;
    try {
      row = await d.tasks.submit({ source, action, params, owner: req.tokenId ?? null, scopes: req.tokenScopes ?? [] });
    } catch (e) {
      if (e instanceof NeedsConfirmation) return reply.code(409).send(e.body);
      throw e;
    }
    if (wait > 0 && !isFinished(row.status)) {
      // A caller that hangs up stops the wait (the task goes on); a finished answer needs no listener.
      const left = new AbortController();
      const hungUp = () => {
        if (!reply.raw.writableEnded) left.abort();
      };
      reply.raw.once('close', hungUp);
      try {
        row = await d.tasks.wait(row, wait, left.signal);
      } finally {
        reply.raw.off('close', hungUp);
      }
    }
    if (wait > 0 && isFinished(row.status)) return reply.code(200).type(JSON_TYPE).send(d.tasks.answer(row));
    // The state at acceptance (spec: 202 {task_id, status: queued}), whatever a worker did since.
    return reply.code(202).type(JSON_TYPE).send(`{"task_id":${JSON.stringify(row.id)},"status":"queued"}`);
  });

  app.get('/v1/tasks', { config: { scope: 'read' } }, async (req, reply) => {
    const q = parseListQuery(req.query as Record<string, unknown>);
    const page = await d.tasks.list(q, callerOf(req));
    const next = page.next ? `,"next_cursor":${JSON.stringify(page.next)}` : '';
    return reply.type(JSON_TYPE).send(`{"tasks":[${page.tasks.join(',')}]${next}}`);
  });

  // Any valid token: a write-only token polls its own write tasks; ownership decides the rest.
  app.get('/v1/tasks/:id', { config: { scope: 'any' } }, async (req, reply) => {
    return reply.type(JSON_TYPE).send(await d.tasks.bytes((req.params as { id: string }).id, callerOf(req)));
  });

  const cancel = async (req: FastifyRequest, reply: FastifyReply) => {
    const row = await d.tasks.cancel((req.params as { id: string }).id, callerOf(req));
    return reply.type(JSON_TYPE).send(taskJson(row));
  };
  app.post('/v1/tasks/:id/cancel', { config: { scope: 'any' } }, cancel);
  app.delete('/v1/tasks/:id', { config: { scope: 'any' } }, cancel);

  app.post('/v1/tasks/:id/retry', { config: { scope: 'any' } }, async (req, reply) => {
    const row = await d.tasks.retry((req.params as { id: string }).id, callerOf(req));
    return reply.type(JSON_TYPE).send(taskJson(row));
  });
}
