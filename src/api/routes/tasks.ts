import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { WAIT_MAX_MS } from '../../tasks/service.js';
import { NeedsConfirmation } from '../../tasks/writes.js';
import { isFinished, taskJson } from '../../tasks/serialize.js';
import type { ApiDeps } from '../context.js';

const JSON_TYPE = 'application/json; charset=utf-8';

function parseWait(raw: unknown): number {
  if (raw === undefined || raw === '') return 0;
  if (typeof raw !== 'string' || !/^\d{1,6}$/.test(raw)) throw new ApiError('invalid_request', `wait: milliseconds from 0 to ${WAIT_MAX_MS}`);
  const ms = Number(raw);
  if (ms > WAIT_MAX_MS) throw new ApiError('invalid_request', `wait: at most ${WAIT_MAX_MS} ms`);
  return ms;
}

export function taskRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.post('/v1/tasks', { config: { scope: 'read' } }, async (req, reply) => {
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
    if (wait > 0) row = await d.tasks.wait(row, wait);
    if (wait > 0 && isFinished(row.status)) return reply.code(200).type(JSON_TYPE).send(taskJson(row));
    return reply.code(202).type(JSON_TYPE).send(`{"task_id":${JSON.stringify(row.id)},"status":"${row.status}"}`);
  });

  app.get('/v1/tasks/:id', { config: { scope: 'read' } }, async (req, reply) => {
    return reply.type(JSON_TYPE).send(d.tasks.json((req.params as { id: string }).id));
  });

  const cancel = async (req: { params: unknown }, reply: { type(t: string): { send(b: string): unknown } }) => {
    const row = d.tasks.cancel((req.params as { id: string }).id);
    return reply.type(JSON_TYPE).send(taskJson(row));
  };
  app.post('/v1/tasks/:id/cancel', { config: { scope: 'read' } }, cancel);
  app.delete('/v1/tasks/:id', { config: { scope: 'read' } }, cancel);

  app.post('/v1/tasks/:id/retry', { config: { scope: 'read' } }, async (req, reply) => {
    const row = d.tasks.retry((req.params as { id: string }).id);
    return reply.type(JSON_TYPE).send(taskJson(row));
  });
}
