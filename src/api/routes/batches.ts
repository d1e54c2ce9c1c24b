import type { FastifyInstance } from 'fastify';
import { BATCH_MAX } from '../../domain/batch.js';
import { ApiError } from '../../domain/errors.js';
import type { ApiDeps } from '../context.js';
import { callerOf } from './tasks.js';

/** 500 entries with long params pass the default 1 MiB; this route alone takes up to this much. */
export const BATCH_BODY_LIMIT = 8 * 1024 * 1024;

function parseEntries(body: unknown): Array<Record<string, unknown>> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_request', 'body: expected a JSON object {tasks: [{source, action, params}, …]}');
  const { tasks, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length) throw new ApiError('invalid_request', `body.${extra[0].slice(0, 64)}: unknown field (expected tasks)`);
  if (!Array.isArray(tasks)) throw new ApiError('invalid_request', 'tasks: required, an array of {source, action, params}');
  if (tasks.length === 0) throw new ApiError('invalid_request', 'tasks: empty; send 1 to 500 entries');
  if (tasks.length > BATCH_MAX) throw new ApiError('invalid_request', `tasks: ${tasks.length} entries; at most ${BATCH_MAX} a batch (split it)`);
  const bad = tasks.findIndex((t) => !t || typeof t !== 'object' || Array.isArray(t));
  if (bad !== -1) throw new ApiError('invalid_request', `tasks[${bad}]: expected an object {source, action, params}`);
  return tasks as Array<Record<string, unknown>>;
}

export function batchRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.post('/v1/tasks/batch', { config: { scope: 'read' }, bodyLimit: BATCH_BODY_LIMIT }, async (req, reply) => {
    const entries = parseEntries(req.body);
    return reply.code(202).send(await d.batches.submit(entries, callerOf(req)));
  });

  app.get('/v1/batches/:id', { config: { scope: 'read' } }, async (req, reply) => {
    return reply.send(await d.batches.get((req.params as { id: string }).id, callerOf(req)));
  });

  app.post('/v1/batches/:id/retry', { config: { scope: 'read' } }, async (req, reply) => {
    return reply.send(await d.batches.retry((req.params as { id: string }).id, callerOf(req)));
  });
}
