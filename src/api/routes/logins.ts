import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { LoginStatus } from '../../accounts/browser/index.js';
import type { ApiDeps } from '../context.js';

const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

function view(s: LoginStatus) {
  return {
    id: s.id,
    platform: s.platform,
    name: s.name,
    state: s.state,
    started_at: new Date(s.startedAt).toISOString(),
    ends_at: new Date(s.endsAt).toISOString(),
    ...(s.finishedAt ? { finished_at: new Date(s.finishedAt).toISOString() } : {}),
    ...(s.url ? { url: s.url } : {}),
    ...(s.error ? { error: s.error } : {}),
    screenshot_url: `/v1/logins/${s.id}/screenshot`,
  };
}

/** Human re-login in the profile's browser context (admin): start, watch (state + PNG), cancel. */
export function loginRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.post('/v1/profiles/:platform/:name/login', { config: { scope: 'admin' } }, async (req, reply) => {
    const { platform, name } = req.params as { platform: string; name: string };
    const adapter = d.registry.get(platform);
    if (!adapter) throw new ApiError('unsupported', `unknown platform "${platform.slice(0, 32)}"`);
    if (!NAME_RE.test(name)) throw new ApiError('invalid_request', 'name: letters, digits, _ . - only (1 to 64)');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const loginUrl = (body.login_url as string | undefined) ?? adapter.login?.url;
    const cookie = (body.success_cookie as string | undefined) ?? adapter.login?.successCookie;
    const domains = (body.domains as string[] | undefined) ?? adapter.login?.domains;
    if (typeof loginUrl !== 'string' || !/^https?:\/\//.test(loginUrl)) throw new ApiError('unsupported', `${adapter.id} has no login page configured; pass login_url, success_cookie and domains`);
    if (typeof cookie !== 'string' || !cookie) throw new ApiError('invalid_request', 'success_cookie: the cookie that proves the login');
    if (!Array.isArray(domains) || !domains.length || !domains.every((x) => typeof x === 'string')) throw new ApiError('invalid_request', 'domains: cookie domains such as [".weibo.com"]');
    const timeoutS = body.timeout_s === undefined ? 300 : body.timeout_s;
    if (typeof timeoutS !== 'number' || !(timeoutS >= 5 && timeoutS <= 1800)) throw new ApiError('invalid_request', 'timeout_s: 5 to 1800');
    const existing = d.store.profileGet(adapter.id, name);
    let id: string;
    try {
      id = await d.logins.start({ platform: adapter.id, name, loginUrl, successWhen: { cookie }, domains, timeoutMs: timeoutS * 1000, cookies: existing?.cookies ?? null });
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw new ApiError(code === 'unsupported' ? 'unsupported' : 'upstream_error', (e as Error).message, code === 'unsupported' ? 503 : 502);
    }
    const status = await d.logins.get(id, { screenshot: false });
    return reply.code(202).send(view(status as LoginStatus));
  });

  app.get('/v1/logins/:id', { config: { scope: 'admin' } }, async (req) => {
    const s = await d.logins.get((req.params as { id: string }).id, { screenshot: false });
    if (!s) throw new ApiError('not_found', 'no such login (finished logins are kept 10 minutes)');
    return view(s);
  });

  app.get('/v1/logins/:id/screenshot', { config: { scope: 'admin' } }, async (req, reply) => {
    const s = await d.logins.get((req.params as { id: string }).id, { screenshot: true });
    if (!s) throw new ApiError('not_found', 'no such login');
    if (!s.screenshot) throw new ApiError('not_found', 'no screenshot for this login');
    return reply.type('image/png').header('cache-control', 'no-store').send(s.screenshot);
  });

  app.delete('/v1/logins/:id', { config: { scope: 'admin' } }, async (req) => {
    const id = (req.params as { id: string }).id;
    if (!d.logins.cancel(id)) throw new ApiError('not_found', 'no waiting login with this id');
    return { ok: true, id, state: 'failed' };
  });
}
