import type { FastifyInstance } from 'fastify';
import { webhookLog } from '../../webhooks/schemas.js';
import type { ApiDeps } from '../context.js';
import { callerOf } from './tasks.js';

export function webhookRoutes(app: FastifyInstance, d: ApiDeps): void {
  // Owner-scoped like the task itself: another token's task answers 404 like an unknown id.
  app.get('/v1/tasks/:id/webhooks', { config: { scope: 'any' } }, async (req) => {
    const row = await d.tasks.get((req.params as { id: string }).id, callerOf(req));
    return webhookLog(row.id, await d.webhooks.outbox.forTask(row.id));
  });

  app.get('/v1/webhooks/secret', { config: { scope: 'admin' } }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { secret: d.webhooks.secret, source: d.config.webhookSecret ? 'env' : 'derived' };
  });
}
