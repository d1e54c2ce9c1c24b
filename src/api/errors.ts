import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody } from '../domain/errors.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import { drainBody, type RouteTable } from './http-errors.js';

/** One mapping from any thrown error to the spec's error body; never a bare 500 for bad input. */
export function errorHandler(err: FastifyError | ApiError | Error, req: FastifyRequest, reply: FastifyReply): void {
  // Refused before the body was read (401, 403, 413...): read the rest so the client sees the answer.
  drainBody(req, reply);
  if (err instanceof ApiError) {
    reply.code(err.status).send(err.toBody());
    return;
  }
  const fe = err as FastifyError;
  const status = fe.statusCode ?? 500;
  if (status === 413) {
    // A route may take more than the default (a batch): the message names the limit of this route.
    const limit = req.routeOptions?.bodyLimit ?? 1024 * 1024;
    reply.code(413).send({ ok: false, error: errorBody('invalid_request', `request body larger than ${limit / (1024 * 1024)} MiB`) });
    return;
  }
  if (status === 415) {
    reply.code(415).send({ ok: false, error: errorBody('invalid_request', 'send the body as application/json') });
    return;
  }
  if (status >= 400 && status < 500) {
    const message = fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError ? `malformed JSON body: ${err.message}` : err.message;
    reply.code(status).send({ ok: false, error: errorBody('invalid_request', message) });
    return;
  }
  if (isStoreUnavailable(err)) {
    req.log.warn({ err }, 'database unavailable');
    reply.code(503).header('retry-after', '2').send({ ok: false, error: { ...errorBody('upstream_error', 'the database is unavailable; retry shortly'), retryable: true } });
    return;
  }
  req.log.error({ err }, 'unhandled error');
  reply.code(500).send({ ok: false, error: errorBody('upstream_error', 'internal error') });
}

export function notFoundHandler(routes: RouteTable) {
  return function notFound(req: FastifyRequest, reply: FastifyReply): void {
    drainBody(req, reply);
    const path = req.url.split('?')[0];
    const allowed = routes.allowed(path);
    if (allowed.length) {
      reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({ ok: false, error: errorBody('invalid_request', `${req.method} is not allowed on ${path} (allowed: ${allowed.join(', ')})`) });
      return;
    }
    reply.code(404).send({ ok: false, error: errorBody('not_found', `no route ${req.method} ${path}`) });
  };
}

/** Errors Fastify raises before any route runs (the router's own checks), in the spec's error body. */
export function frameworkErrors(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  // A path segment longer than any id the service hands out names nothing that exists.
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.code(404).send({ ok: false, error: errorBody('not_found', 'no such resource: a path segment is longer than any id') });
    return;
  }
  if (err.code === 'FST_ERR_BAD_URL') {
    reply.code(400).send({ ok: false, error: errorBody('invalid_request', 'the URL path is not valid percent-encoded UTF-8') });
    return;
  }
  errorHandler(err, req, reply);
}
