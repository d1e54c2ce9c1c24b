import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError, errorBody, type ErrorCode } from '../domain/errors.js';

/** The spec's error body as bytes, for answers written before any route or reply exists. */
export function errorJson(code: ErrorCode, message: string): string {
  return JSON.stringify({ ok: false, error: errorBody(code, message) });
}

/**
 * Requests the HTTP parser refuses (unknown methods, bad bytes, obs-fold, conflicting
 * Transfer-Encoding and Content-Length, broken chunked bodies, over-long headers) never reach
 * Fastify: answered here in the same body form, then the connection is closed as HTTP requires.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let code: ErrorCode = 'invalid_request';
  let message = `malformed HTTP request (${parserReason(err)})`;
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = 'request line or headers too large (at most 16 KiB)';
  } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_REQUEST_HEADERS_TIMEOUT') {
    status = 408;
    code = 'timeout';
    message = 'the request was not received in time';
  }
  if (socket.writable) {
    const body = errorJson(code, message);
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  }
  // Whatever the client still sends is not read: give the answer a moment to leave, then let go.
  setTimeout(() => socket.destroy(), 1000).unref();
}

function parserReason(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'HPE_INVALID_METHOD':
      return 'unknown method';
    case 'HPE_INVALID_HEADER_TOKEN':
      return 'invalid character in a header';
    case 'HPE_INVALID_URL':
      return 'invalid request target';
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return 'both Transfer-Encoding and Content-Length';
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return 'invalid Transfer-Encoding';
    case 'HPE_INVALID_CHUNK_SIZE':
      return 'invalid chunk size';
    case 'HPE_INVALID_CONTENT_LENGTH':
      return 'invalid Content-Length';
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
    case 'HPE_STRICT':
      return 'malformed line endings';
    case 'HPE_INVALID_VERSION':
      return 'unsupported HTTP version';
    default:
      return 'the request could not be parsed';
  }
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered so far (method, URL pattern, scope). */
    registeredRoutes(): readonly RegisteredRoute[];
  }
}

/** A route as registered: the OpenAPI document and its coverage test are checked against these. */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** The route's config.scope; absent on a public route. */
  scope?: string;
}

/** Which methods each path pattern answers, so a wrong method is 405 with Allow, not 404. */
export class RouteTable {
  private readonly routes: Array<{ re: RegExp; methods: Set<string> }> = [];
  private readonly registered: RegisteredRoute[] = [];

  onRoute = (r: RouteOptions): void => {
    const url = r.url;
    if (!url) return;
    const scope = (r.config as { scope?: string } | undefined)?.scope;
    for (const m of [r.method].flat()) this.registered.push({ method: String(m).toUpperCase(), url, ...(scope ? { scope } : {}) });
    const re = new RegExp(`^${url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+').replace(/\*/g, '.*')}$`);
    let entry = this.routes.find((e) => e.re.source === re.source);
    if (!entry) {
      entry = { re, methods: new Set() };
      this.routes.push(entry);
    }
    for (const m of [r.method].flat()) entry.methods.add(String(m).toUpperCase());
  };

  /** Every method and URL pattern registered so far, in registration order. */
  list(): readonly RegisteredRoute[] {
    return this.registered;
  }

  /** The methods the path answers; empty when no route has this path. */
  allowed(path: string): string[] {
    const found = new Set<string>();
    for (const e of this.routes) if (e.re.test(path)) for (const m of e.methods) found.add(m);
    return METHODS.filter((m) => found.has(m));
  }
}

/** A request refused before its body was read still gets its answer: the rest of the body is read and dropped. */
export function drainBody(req: FastifyRequest, reply: FastifyReply): void {
  const raw = req.raw;
  if (raw.complete || raw.readableEnded) return;
  const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
  if (!hasBody) return;
  // Closing unread would reset the connection under a client still sending (it then sees no status).
  reply.header('connection', 'close');
  let seen = 0;
  const LIMIT = 64 * 1024 * 1024;
  raw.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > LIMIT) raw.destroy();
  });
  raw.resume();
}

/** While the service closes, requests still arriving get the spec's body (Fastify's own 503 has another shape). */
export function closingGuard(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_req, reply, done) => {
    if (!closing) return done();
    reply.code(503).header('connection', 'close').header('retry-after', '5').type('application/json; charset=utf-8').send(errorJson('upstream_error', 'the service is shutting down; retry shortly'));
  });
}

/**
 * The JSON body parser. JSON.parse keeps a "__proto__" key as plain data, so nothing is polluted;
 * such keys are still refused by name, since no param has them and code downstream may copy objects.
 */
export function parseJsonBody(_req: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void): void {
  if (body.length === 0) return done(new ApiError('invalid_request', 'the body is empty: send a JSON object'));
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    return done(new ApiError('invalid_request', `malformed JSON body: ${(e as Error).message}`));
  }
  // Neither name, nor any escape that could spell one: no key to look for (the walk costs more than the parse).
  const bad = SUSPECT_KEY.test(body) ? forbiddenKey(value, 0) : undefined;
  if (bad) return done(new ApiError('invalid_request', `body: the key ${bad} is not accepted (it names an object's prototype); rename it`));
  done(null, value);
}

const SUSPECT_KEY = /__proto__|constructor|\\u/;

function forbiddenKey(v: unknown, depth: number): string | undefined {
  if (!v || typeof v !== 'object' || depth > 64) return undefined;
  for (const k of Object.keys(v)) {
    const child = (v as Record<string, unknown>)[k];
    if (k === '__proto__') return '__proto__';
    if (k === 'constructor' && child && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return 'constructor.prototype';
    const deeper = forbiddenKey(child, depth + 1);
    if (deeper) return deeper;
  }
  return undefined;
}
