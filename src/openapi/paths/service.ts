import { json, text } from '../responses.js';
import type { RouteDoc } from '../route-doc.js';

export function serviceDocs(): RouteDoc[] {
  return [
    {
      method: 'GET',
      path: '/v1/health',
      access: 'public',
      tag: 'Service',
      summary: 'Liveness and light fleet figures (never account data)',
      responses: { 200: json('Health', 'the service is up') },
    },
    {
      method: 'GET',
      path: '/metrics',
      access: 'any',
      tag: 'Service',
      summary: 'Prometheus metrics',
      responses: { 200: text('text/plain', 'Prometheus text exposition format') },
    },
    {
      method: 'GET',
      path: '/v1/openapi.json',
      access: 'public',
      tag: 'Service',
      summary: 'This OpenAPI 3.1 document',
      responses: { 200: { description: 'the document, generated from the route schemas and the catalog', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
    {
      method: 'GET',
      path: '/docs',
      access: 'public',
      tag: 'Service',
      summary: 'Interactive API reference (this document, rendered; works offline)',
      responses: { 200: text('text/html', 'the reference page') },
    },
    {
      method: 'GET',
      path: '/docs/agent.txt',
      access: 'public',
      tag: 'Service',
      summary: 'Plain-text guide for agents and scripts, generated from the catalog',
      responses: { 200: text('text/plain', 'the guide') },
    },
  ];
}
