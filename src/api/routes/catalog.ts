import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Capabilities, Categories } from '../../domain/catalog.js';
import { ApiError } from '../../domain/errors.js';
import type { ApiDeps } from '../context.js';

/** Query of GET /v1/categories, as documented. */
export const CategoriesQuerySchema = z.object({ source: z.string().min(1).describe('a platform, e.g. weibo') });

export function catalogRoutes(app: FastifyInstance, d: ApiDeps): void {
  const sources = JSON.stringify(d.catalog.entries);
  app.get('/v1/task-sources', { config: { scope: 'read' } }, async (_req, reply) => reply.type('application/json; charset=utf-8').send(sources));

  const capabilities = JSON.stringify({
    providers: d.registry.adapters.map((a) => ({
      source: a.id,
      name: a.name,
      region: a.region,
      actions: Object.keys(a.actions),
      auth: a.auth,
      write: Object.keys(a.actions).some((x) => x === 'post.create' || x === 'comment.create' || x === 'delete'),
      categories: Boolean(a.categories?.length),
    })),
  } satisfies Capabilities);
  app.get('/v1/capabilities', { config: { scope: 'read' } }, async (_req, reply) => reply.type('application/json; charset=utf-8').send(capabilities));

  app.get('/v1/categories', { config: { scope: 'read' } }, async (req) => {
    const source = (req.query as Record<string, unknown>).source;
    if (typeof source !== 'string' || !source.trim()) throw new ApiError('invalid_request', 'source: required, e.g. /v1/categories?source=weibo');
    const adapter = d.registry.get(source.trim());
    if (!adapter) throw new ApiError('unsupported', `unknown source "${source.slice(0, 64)}" (see GET /v1/task-sources)`);
    return { source: adapter.id, categories: adapter.categories ?? [] } satisfies Categories;
  });
}
