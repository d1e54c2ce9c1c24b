import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Health } from '../../domain/health.js';
import type { ApiDeps, FleetView } from '../context.js';

export function healthRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.get('/v1/health', async (req) => {
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
      // Embedded: this one process is the whole fleet; distributed figures come from the heartbeats and the shared queue.
      ...(d.fleet ? await fleetFigures(d.fleet, await isAdmin(d, req)) : { workers: d.config.workers, queue_depth: queue.queued ?? 0 }),
      ffmpeg: d.tools.ffmpeg,
      browser: d.tools.browser,
    } satisfies Health;
  });
}

/**
 * Worker processes alive by their heartbeats, their slots and runs, and the queue's depth. The route is
 * public and serves no account data (decisions.md), so depths are summed per platform; an operator's
 * admin token also gets them per account.
 */
async function fleetFigures(fleet: FleetView, admin: boolean) {
  const [workers, depths] = await Promise.all([fleet.workers(), fleet.depths()]);
  const queues: Record<string, number> = {};
  for (const [account, n] of Object.entries(depths)) {
    const platform = account.slice(0, account.indexOf(':'));
    queues[platform] = (queues[platform] ?? 0) + n;
  }
  return {
    workers: workers.length,
    worker_slots: workers.reduce((n, w) => n + w.slots, 0),
    running: workers.reduce((n, w) => n + w.running, 0),
    queue_depth: Object.values(depths).reduce((n, x) => n + x, 0),
    queues,
    ...(admin ? { accounts: depths } : {}),
  };
}

/** A public route that says more to the operator: a missing or bad token is simply the public answer. */
async function isAdmin(d: ApiDeps, req: FastifyRequest): Promise<boolean> {
  const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  if (!m) return false;
  const row = await d.tokens.verify(m[1]);
  return Boolean(row?.scopes.split(',').includes('admin'));
}

export function metricsRoute(app: FastifyInstance, d: ApiDeps): void {
  app.get('/metrics', { config: { scope: 'any' } }, async (_req, reply) => {
    const body = await d.metrics.registry.metrics();
    return reply.type(d.metrics.registry.contentType).send(body);
  });
}
