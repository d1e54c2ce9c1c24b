import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { ApiError } from '../../domain/errors.js';
import { McpTools } from '../../mcp/calls.js';
import { mcpServerFor } from '../../mcp/server.js';
import type { ApiDeps } from '../context.js';
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
    // JSON-RPC calls an empty batch invalid; the transport would accept it as "nothing to answer".
    if (Array.isArray(req.body) && req.body.length === 0) throw new ApiError('invalid_request', 'MCP: an empty batch is not a JSON-RPC message');
    const server = mcpServerFor(tools, callerOf(req), sources, d.version, validator);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    // The client hanging up aborts a waiting tool call (its task keeps running).
    reply.raw.once('close', () => void server.close());
    const response = await transport.handleRequest(webRequest(req), { parsedBody: req.body });
    if (!response.ok) throw await refusal(response);
    // Fastify holds a streamed reply's headers until its first chunk; an SSE answer to a tool call
    // that waits must show its 200 at once (clients and proxies time out on silent requests).
    reply.hijack();
    const res = reply.raw;
    // The hooks' headers (nosniff, CSP, CORS) are on the reply, which is bypassed from here.
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) res.setHeader(k, v);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.flushHeaders();
    if (!response.body) return void res.end();
    const body = Readable.fromWeb(response.body as never);
    body.on('error', () => res.destroy());
    res.once('close', () => body.destroy());
    body.pipe(res);
  });
}

/** The transport reads only headers from it: the body was parsed already. */
function webRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers.set(k, v);
    else if (Array.isArray(v)) headers.set(k, v.join(', '));
  }
  return new Request(`http://mcp.invalid${req.url}`, { method: req.method, headers });
}

/** The transport refuses in JSON-RPC's error body; the service answers every refusal in the spec's. */
async function refusal(response: Response): Promise<ApiError> {
  const text = await response.text();
  let message = text.slice(0, 300) || `HTTP ${response.status}`;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
  } catch {
    /* not JSON: the text itself */
  }
  return new ApiError(response.status >= 500 ? 'upstream_error' : 'invalid_request', `MCP: ${message}`, response.status);
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
