import type { FastifyInstance } from 'fastify';
import { parseScopes } from '../../auth/tokens.js';
import { ApiError } from '../../domain/errors.js';
import type { ApiDeps } from '../context.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Profiles (read-only for now) and the admin token routes. */
export function operatorRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.get('/v1/profiles', { config: { scope: 'read' } }, async () => ({
    profiles: d.store.profileList().map((p) => ({ platform: p.platform, name: p.name, health: p.health, checked_at: iso(p.checked_at), used_at: iso(p.used_at) })),
  }));

  app.get('/v1/tokens', { config: { scope: 'admin' } }, async () => ({ tokens: d.tokens.list() }));

  app.post('/v1/tokens', { config: { scope: 'admin' } }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_request', 'body: expected {scopes, name?}');
    const rawScopes = body.scopes;
    if (!(typeof rawScopes === 'string' || (Array.isArray(rawScopes) && rawScopes.every((s) => typeof s === 'string')))) {
      throw new ApiError('invalid_request', 'scopes: expected an array such as ["read"] or a string "read,write"');
    }
    if (body.name !== undefined && typeof body.name !== 'string') throw new ApiError('invalid_request', 'name: expected a string');
    const { token, info } = d.tokens.create(parseScopes(rawScopes as string | string[]), body.name as string | undefined);
    return reply.code(201).send({ ...info, token });
  });

  app.delete('/v1/tokens/:id', { config: { scope: 'admin' } }, async (req) => {
    const id = (req.params as { id: string }).id;
    const done = d.tokens.revoke(id);
    if (!done) throw new ApiError('not_found', `no token ${JSON.stringify(id.slice(0, 64))}`);
    return { ok: true, id: done.id, revoked: true };
  });
}
