import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseScopes } from '../../auth/tokens.js';
import { ApiError } from '../../domain/errors.js';
import { TOKEN_SCOPES } from '../../domain/operator.js';
import type { ApiDeps } from '../context.js';

const PROFILE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Body of POST /v1/profiles, as documented; ProfileService.upsert enforces it. */
export const ProfileStoreBodySchema = z.object({
  platform: z.string().describe('a catalog source'),
  name: z.string().regex(PROFILE_NAME).default('default'),
  cookies: z
    .union([z.string(), z.array(z.object({ name: z.string(), value: z.string() }).loose())])
    .optional()
    .describe('a Cookie header string, a Netscape cookies.txt, or a JSON array of {name, value} (at most 64 KiB)'),
  credentials: z.record(z.string().regex(PROFILE_NAME), z.string().max(8192)).optional().describe('named secrets (API tokens, app passwords); stored sealed, never shown again'),
  proxy: z
    .string()
    .max(2048)
    .nullable()
    .optional()
    .describe('http://, https:// or socks5:// [user:password@]host:port: every request of this profile leaves through it, never another way; stored sealed, shown masked; null removes it, absent keeps it'),
  pool: z.string().regex(PROFILE_NAME).nullable().optional().describe('a named pool this profile serves in (params.profile "pool:<name>"); null removes it, absent keeps it'),
});

/** Body of POST /v1/tokens, as documented. */
export const TokenCreateBodySchema = z.object({
  scopes: z.union([z.array(z.enum(TOKEN_SCOPES)).min(1), z.string().describe('comma-separated, e.g. "read,write"')]),
  name: z.string().optional(),
});

/** Profiles and tokens: the operator's surface. */
export function operatorRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.get('/v1/profiles', { config: { scope: 'read' } }, async () => ({ profiles: await d.profiles.list() }));

  app.post('/v1/profiles', { config: { scope: 'admin' } }, async (req, reply) => {
    const body = req.body as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_request', 'body: expected {platform, name, cookies?, credentials?, proxy?, pool?}');
    return reply.code(201).send(await d.profiles.upsert({ platform: body.platform, name: body.name, cookies: body.cookies, credentials: body.credentials, proxy: body.proxy, pool: body.pool }));
  });

  app.post('/v1/profiles/:platform/:name/check', { config: { scope: 'admin' } }, async (req) => {
    const { platform, name } = req.params as { platform: string; name: string };
    try {
      return { platform, name, ...(await d.checker.check(platform, name)) };
    } catch (e) {
      throw new ApiError('not_found', (e as Error).message);
    }
  });

  app.delete('/v1/profiles/:platform/:name', { config: { scope: 'admin' } }, async (req) => {
    const { platform, name } = req.params as { platform: string; name: string };
    if (!(await d.profiles.remove(platform, name))) throw new ApiError('not_found', `no profile ${platform.slice(0, 32)}/${name.slice(0, 64)}`);
    return { ok: true, platform, name, deleted: true };
  });

  app.get('/v1/tokens', { config: { scope: 'admin' } }, async () => ({ tokens: await d.tokens.list() }));

  app.post('/v1/tokens', { config: { scope: 'admin' } }, async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_request', 'body: expected {scopes, name?}');
    const rawScopes = body.scopes;
    if (!(typeof rawScopes === 'string' || (Array.isArray(rawScopes) && rawScopes.every((s) => typeof s === 'string')))) {
      throw new ApiError('invalid_request', 'scopes: expected an array such as ["read"] or a string "read,write"');
    }
    if (body.name !== undefined && typeof body.name !== 'string') throw new ApiError('invalid_request', 'name: expected a string');
    const { token, info } = await d.tokens.create(parseScopes(rawScopes as string | string[]), body.name as string | undefined);
    return reply.code(201).send({ ...info, token });
  });

  app.delete('/v1/tokens/:id', { config: { scope: 'admin' } }, async (req) => {
    const id = (req.params as { id: string }).id;
    const done = await d.tokens.revoke(id);
    if (!done) throw new ApiError('not_found', `no token ${JSON.stringify(id.slice(0, 64))}`);
    return { ok: true, id: done.id, revoked: true };
  });
}
