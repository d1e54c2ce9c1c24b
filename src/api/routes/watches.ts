import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../domain/errors.js';
import { watchView, WATCH_ID, type WatchService } from '../../watches/service.js';
import { callerOf } from './tasks.js';

const LIST_DEFAULT = 50;
const LIST_MAX = 100;

/** Query of GET /v1/watches, as documented; parseListQuery enforces it with the spec's messages. */
export const WatchListQuerySchema = z.object({
  limit: z.int().min(1).max(LIST_MAX).default(LIST_DEFAULT),
  cursor: z.string().regex(WATCH_ID).optional().describe("a previous page's next_cursor, unchanged"),
  all: z.enum(['true', 'false']).default('false').describe("admin: every owner's watches, not only the caller's"),
});
const LIST_KEYS = Object.keys(WatchListQuerySchema.shape);

function parseListQuery(q: Record<string, unknown>): { limit: number; before?: string; all: boolean } {
  for (const k of Object.keys(q)) {
    if (!LIST_KEYS.includes(k)) throw new ApiError('invalid_request', `${k}: unknown query parameter (${LIST_KEYS.join(', ')})`);
    if (typeof q[k] !== 'string') throw new ApiError('invalid_request', `${k}: give it once`);
  }
  const { limit, cursor, all } = q as Record<string, string | undefined>;
  if (limit !== undefined && (!/^\d{1,3}$/.test(limit) || Number(limit) < 1 || Number(limit) > LIST_MAX)) throw new ApiError('invalid_request', `limit: 1 to ${LIST_MAX}`);
  if (cursor !== undefined && !WATCH_ID.test(cursor)) throw new ApiError('invalid_request', 'cursor: pass back next_cursor unchanged');
  if (all !== undefined && all !== 'true' && all !== 'false') throw new ApiError('invalid_request', 'all: true or false');
  return { limit: limit === undefined ? LIST_DEFAULT : Number(limit), before: cursor, all: all === 'true' };
}

/** Watches belong to the token that created them (an admin token sees all); running them needs read. */
export function watchRoutes(app: FastifyInstance, watches: WatchService): void {
  const idOf = (req: { params: unknown }) => (req.params as { id: string }).id;

  app.post('/v1/watches', { config: { scope: 'read' } }, async (req, reply) => {
    const w = await watches.create(req.body, callerOf(req));
    return reply.code(201).send(watchView(w));
  });

  app.get('/v1/watches', { config: { scope: 'read' } }, async (req, reply) => {
    const page = await watches.list(parseListQuery(req.query as Record<string, unknown>), callerOf(req));
    return reply.send({ watches: page.watches.map((w) => watchView(w)), ...(page.next ? { next_cursor: page.next } : {}) });
  });

  app.get('/v1/watches/:id', { config: { scope: 'read' } }, async (req, reply) => {
    const w = await watches.get(idOf(req), callerOf(req));
    return reply.send(watchView(w, await watches.recentRuns(w.id)));
  });

  app.patch('/v1/watches/:id', { config: { scope: 'read' } }, async (req, reply) => {
    return reply.send(watchView(await watches.update(idOf(req), req.body, callerOf(req))));
  });

  app.delete('/v1/watches/:id', { config: { scope: 'read' } }, async (req, reply) => {
    const id = idOf(req);
    await watches.delete(id, callerOf(req));
    return reply.send({ watch_id: id, deleted: true });
  });
}
