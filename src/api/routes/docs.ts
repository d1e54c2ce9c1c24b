import type { FastifyInstance } from 'fastify';
import { agentGuide } from '../../docs/agent-guide.js';
import { ApiError } from '../../domain/errors.js';
import { openApiDocument } from '../../openapi/document.js';
import { pagePolicy, referencePage } from '../../openapi/reference-page.js';
import type { ApiDeps } from '../context.js';

/** The agent guide, the OpenAPI document and the interactive reference page; all public, all built once. */
export function docsRoutes(app: FastifyInstance, d: ApiDeps): void {
  const text = agentGuide(d.catalog.entries, d.registry.adapters, d.config.publicUrl ?? `http://localhost:${d.config.port}`);
  app.get('/docs/agent.txt', async (_req, reply) => reply.type('text/plain; charset=utf-8').send(text));

  const openapi = Buffer.from(JSON.stringify(openApiDocument({ catalog: d.catalog, registry: d.registry, config: d.config, version: d.version })));
  app.get('/v1/openapi.json', async (_req, reply) => reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(openapi));

  const page = referencePage();
  const policy = pagePolicy(d.config.publicUrl);
  app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', policy).send(page.html));
  app.get('/docs/:asset', async (req, reply) => {
    const name = (req.params as { asset: string }).asset;
    const asset = page.asset(name);
    if (!asset) throw new ApiError('not_found', `no such file under /docs: ${JSON.stringify(name.slice(0, 64))}`);
    return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body);
  });
}
