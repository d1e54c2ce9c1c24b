import type { FastifyReply, FastifyRequest } from 'fastify';

// mcp-protocol-version: browser MCP clients send it on every request after initialize (POST /mcp).
const ALLOW_HEADERS = 'authorization, content-type, last-event-id, range, if-none-match, if-range, mcp-protocol-version';
const EXPOSE_HEADERS = 'retry-after, content-range, accept-ranges, content-length, etag, last-modified, allow, location';
const ALLOW_METHODS = 'GET, HEAD, POST, DELETE, OPTIONS';

/**
 * CORS for browser apps on other origins (CRAWLER_CORS_ORIGINS). The API authenticates with a bearer
 * header, never cookies, so credentials are not allowed and '*' exposes nothing a token does not.
 * Preflights need no token; an origin off the list gets no CORS headers at all.
 */
export function corsHook(origins: readonly string[]) {
  const any = origins.includes('*');
  const listed = new Set(origins);
  return function cors(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
    const origin = req.headers.origin;
    if (!origin || !(any || listed.has(origin.toLowerCase()))) return done();
    reply.header('access-control-allow-origin', any ? '*' : origin);
    reply.header('vary', 'Origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      reply
        .code(204)
        .header('access-control-allow-methods', ALLOW_METHODS)
        .header('access-control-allow-headers', ALLOW_HEADERS)
        .header('access-control-max-age', '600')
        .send();
      return;
    }
    reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    done();
  };
}
