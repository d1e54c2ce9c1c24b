import type { FastifyInstance } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { McpTools } from '../../mcp/calls.js';
import { mcpServerFor } from '../../mcp/server.js';
import { ApiError } from '../../domain/errors.js';
import type { ApiDeps } from '../context.js';
import { errorJson } from '../http-errors.js';
import { callerOf } from './tasks.js';

/**
 * MCP over streamable HTTP, stateless: each POST carries its own JSON-RPC message(s) and gets its
 * answer (an SSE stream that ends with the response). GET and DELETE answer 405, which the
 * transport's spec allows (no server-initiated stream, no session to end).
 */
export function mcpRoutes(app: FastifyInstance, d: ApiDeps): void {
  const tools = new McpTools({ tasks: d.tasks, catalog: d.catalog, waitMs: d.config.mcpWaitMs });
  // Compiling Ajv per request would cost more than the request; the servers never use it for tools anyway.
  const validator = new AjvJsonSchemaValidator();

  // Any valid token: its scopes decide which tools are listed and callable.
  app.post('/mcp', { config: { scope: 'any' } }, async (req, reply) => {
    const sources = parseSources(d, (req.query as Record<string, unknown>).sources);
    const server = mcpServerFor(tools, callerOf(req), sources, d.version, validator);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    reply.hijack();
    const res = reply.raw;
    // Headers the hooks set (nosniff, CSP, CORS) live on the reply, which is bypassed from here.
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) res.setHeader(k, v);
    // The client leaving aborts a waiting tool call (its task keeps running).
    res.on('close', () => void server.close());
    try {
      await server.connect(transport);
      await transport.handleRequest(req.raw, res, req.body);
    } catch (err) {
      req.log.error({ err }, 'MCP request failed');
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(errorJson('upstream_error', 'internal error'));
    }
  });
}

/** ?sources=weibo,bilibili lists only those platforms' tools; an unknown name is a mistake worth saying. */
function parseSources(d: ApiDeps, raw: unknown): Set<string> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw new ApiError('invalid_request', 'sources: give it once, comma-separated (e.g. sources=weibo,bilibili)');
  const out = new Set<string>();
  for (const name of raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    const adapter = d.registry.get(name);
    if (!adapter) throw new ApiError('invalid_request', `sources: unknown source "${name.slice(0, 64)}" (see GET /v1/task-sources)`);
    out.add(adapter.id);
  }
  return out.size ? out : undefined;
}
