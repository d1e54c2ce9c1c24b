import type { FastifyInstance } from 'fastify';
import { agentGuide } from '../../docs/agent-guide.js';
import type { ApiDeps } from '../context.js';

export function docsRoutes(app: FastifyInstance, d: ApiDeps): void {
  const text = agentGuide(d.catalog.entries, d.registry.adapters, d.config.publicUrl ?? `http://localhost:${d.config.port}`);
  app.get('/docs/agent.txt', async (_req, reply) => reply.type('text/plain; charset=utf-8').send(text));
}
