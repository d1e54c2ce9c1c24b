import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../context.js';

export function healthRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.get('/v1/health', async () => ({
    ok: true,
    version: d.version,
    mode: 'embedded',
    replay: d.config.replay.length > 0,
    uptime_s: Math.floor((Date.now() - d.startedAt) / 1000),
    queue: await d.store.countByStatus(),
    workers: d.config.workers,
    ffmpeg: d.tools.ffmpeg,
    browser: d.tools.browser,
  }));

  app.get('/metrics', { config: { scope: 'any' } }, async (_req, reply) => {
    const body = await d.metrics.registry.metrics();
    return reply.type(d.metrics.registry.contentType).send(body);
  });
}
