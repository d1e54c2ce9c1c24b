import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { authHook } from './auth.js';
import type { ApiDeps } from './context.js';
import { errorHandler, frameworkErrors, notFoundHandler } from './errors.js';
import { clientErrorHandler, closingGuard, parseJsonBody, RouteTable } from './http-errors.js';
import { corsHook } from './cors.js';
import { ApiError } from '../domain/errors.js';
import { catalogRoutes } from './routes/catalog.js';
import { consoleRoutes } from './routes/console.js';
import { docsRoutes } from './routes/docs.js';
import { healthRoutes, metricsRoute } from './routes/health.js';
import { mediaRoutes } from './routes/media.js';
import { mcpRoutes } from './routes/mcp.js';
import { previewRoutes } from './routes/preview.js';
import { fileRoutes } from './routes/files.js';
import { loginRoutes } from './routes/logins.js';
import { operatorRoutes } from './routes/operator.js';
import { batchRoutes } from './routes/batches.js';
import { exportRoutes } from './routes/exports.js';
import { streamRoutes } from './routes/stream.js';
import { taskRoutes } from './routes/tasks.js';
import { webhookRoutes } from './routes/webhooks.js';
import { watchRoutes } from './routes/watches.js';

export const BODY_LIMIT = 1024 * 1024;

export function buildApp(d: ApiDeps, logger: boolean | object = false): FastifyInstance {
  const routes = new RouteTable();
  const app = Fastify({
    logger: logger as never,
    bodyLimit: BODY_LIMIT,
    // Our own guard answers while closing, in the spec's body (Fastify's 503 has another shape).
    return503OnClosing: false,
    clientErrorHandler,
    routerOptions: { maxParamLength: 200 },
    // Bad percent-encoding and over-long path ids are answered before routing: still the spec's error body.
    frameworkErrors,
    // Media streams move 64 KiB chunks: a 16 KiB socket buffer would pause the pipe after every chunk.
    serverFactory: (handler) => {
      // A request without Host is refused by a hook in the spec's body, not by Node's bodiless 400.
      const server = createServer({ highWaterMark: 1024 * 1024, requireHostHeader: false, maxHeaderSize: 16 * 1024 }, handler);
      // Node's 5 s default closes idle keep-alive sockets under clients that are about to reuse them.
      server.keepAliveTimeout = 72_000;
      return server;
    },
  });
  // JSON only: other bodies get 415 rather than being read as strings.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler(routes));
  app.addHook('onRoute', routes.onRoute);
  app.decorate('registeredRoutes', () => routes.list());
  closingGuard(app);
  // Nothing this service answers is meant to be sniffed or to run code in a browser (media proxy above all).
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-security-policy', "default-src 'none'");
    done();
  });
  if (d.config.corsOrigins.length) app.addHook('onRequest', corsHook(d.config.corsOrigins));
  app.addHook('onRequest', (req, reply, done) => {
    if (!req.headers.host && req.raw.httpVersionMajor === 1 && req.raw.httpVersionMinor >= 1) {
      // As malformed as any request the parser refuses: answered, then the connection ends.
      reply.header('connection', 'close');
      throw new ApiError('invalid_request', 'HTTP/1.1 requests need a Host header');
    }
    done();
  });
  app.addHook('onRequest', authHook(d.tokens));
  app.addHook('onResponse', (req, reply, done) => {
    d.metrics.httpRequests.inc({ method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) });
    done();
  });
  healthRoutes(app, d);
  // A worker process answers its health check (for the orchestrator) and nothing else, except the
  // media proxy to its own ffmpeg (preview renders read streams through it with the internal token).
  if (d.deployment.role === 'worker') {
    void app.register(async (inner) => {
      const internal = Buffer.from(`Bearer ${d.tokens.internalToken}`);
      inner.addHook('onRequest', async (req) => {
        const given = Buffer.from(req.headers.authorization ?? '');
        if (given.length !== internal.length || !timingSafeEqual(given, internal)) throw new ApiError('not_found', `no route ${req.method} ${req.url.split('?')[0]}`);
      });
      mediaRoutes(inner, d);
    });
    return app;
  }
  metricsRoute(app, d);
  taskRoutes(app, d);
  webhookRoutes(app, d);
  watchRoutes(app, d.watches);
  streamRoutes(app, d);
  exportRoutes(app, d);
  batchRoutes(app, d);
  catalogRoutes(app, d);
  operatorRoutes(app, d);
  docsRoutes(app, d);
  mediaRoutes(app, d);
  previewRoutes(app, d);
  fileRoutes(app, d);
  loginRoutes(app, d);
  consoleRoutes(app, d);
  mcpRoutes(app, d);
  return app;
}
