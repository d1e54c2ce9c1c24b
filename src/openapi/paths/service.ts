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
      path: '/console',
      access: 'public',
      tag: 'Service',
      summary: 'The web console (submit, tasks, results, comments, profiles, tokens); it holds no data, every call it makes needs a token',
      responses: { 200: text('text/html', 'the console page') },
    },
    {
      method: 'POST',
      path: '/mcp',
      access: 'any',
      tag: 'Service',
      summary: 'MCP over streamable HTTP (JSON-RPC 2.0): tools generated from the catalog, one per source.action, plus get_task, cancel_task and list_sources',
      description:
        "Stateless: each POST carries one JSON-RPC message or batch (initialize, tools/list, tools/call...) and is answered as JSON or as an SSE stream (Accept: application/json, text/event-stream). The token's scopes decide which tools are listed and callable; write tools need the write scope and return their plan until called again with confirm: true. GET and DELETE answer 405. ?sources=weibo,bilibili narrows the tool list.",
      body: { schema: { type: 'object', description: 'a JSON-RPC 2.0 request, notification or batch (MCP)' } },
      responses: { 200: text('application/json', 'the JSON-RPC answer (or text/event-stream)'), 202: text('application/json', 'a notification or response was accepted (no body)') },
      errors: ['invalid_request'],
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
