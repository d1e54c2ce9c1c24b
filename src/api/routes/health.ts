import type { FastifyInstance } from 'fastify';
import type { Health } from '../../domain/health.js';
import type { ApiDeps } from '../context.js';

export function healthRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.get('/v1/health', async () => {
    const queue = await d.store.countByStatus();
    const { mode, role } = d.deployment;
    return {
      ok: true,
      version: d.version,
      mode,
      role,
      replay: d.config.replay.length > 0,
      uptime_s: Math.floor((Date.now() - d.startedAt) / 1000),
      queue,
      // Embedded: this one process is the whole fleet; distributed figures come from the shared queue.
      ...(mode === 'embedded' ? { workers: d.config.workers, queue_depth: queue.queued ?? 0 } : {}),
      ffmpeg: d.tools.ffmpeg,
      browser: d.tools.browser,
    } satisfies Health;
  });
}

export function metricsRoute(app: FastifyInstance, d: ApiDeps): void {
  app.get('/metrics', { config: { scope: 'any' } }, async (_req, reply) => {
    const body = await d.metrics.registry.metrics();
    return reply.type(d.metrics.registry.contentType).send(body);
  });
}
