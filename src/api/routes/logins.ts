import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../domain/errors.js';
import type { Login } from '../../domain/operator.js';
import { LOGIN_KEYS, type LoginInput, type LoginStatus } from '../../accounts/browser/index.js';
import type { ApiDeps } from '../context.js';

const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const COORD_MAX = 4096;
const TEXT_MAX = 1000;
const SCROLL_MAX = 5000;
const TIMEOUT_S = { min: 5, max: 1800, default: 300 };

/** Body of POST /v1/profiles/{platform}/{name}/login, as documented; the handler enforces it. */
export const LoginStartBodySchema = z.object({
  login_url: z.string().regex(/^https?:\/\//).optional().describe("the page to log in on; default: the platform's own"),
  success_cookie: z.string().min(1).optional().describe('the cookie whose arrival proves the login'),
  domains: z.array(z.string()).min(1).optional().describe('cookie domains to keep, e.g. [".weibo.com"]'),
  timeout_s: z.number().min(TIMEOUT_S.min).max(TIMEOUT_S.max).default(TIMEOUT_S.default),
});

/** Body of POST /v1/logins/{id}/input: one operator action on the page the screenshot shows. */
export const LoginInputBodySchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('click'), x: z.number().min(0).max(COORD_MAX), y: z.number().min(0).max(COORD_MAX) }).describe('screenshot pixel coordinates'),
  z.object({ action: z.literal('type'), text: z.string().min(1).max(TEXT_MAX) }),
  z.object({ action: z.literal('key'), key: z.enum(LOGIN_KEYS) }),
  z.object({ action: z.literal('scroll'), dy: z.number().min(-SCROLL_MAX).max(SCROLL_MAX) }),
]);

function view(s: LoginStatus): Login {
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
    input_url: `/v1/logins/${s.id}/input`,
  };
}

const bad = (m: string) => new ApiError('invalid_request', m);
const within = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;

/** One operator input from a request body, or a 400 naming what is wrong. */
function loginInput(body: unknown): LoginInput {
  const b = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  switch (b.action) {
    case 'click':
      if (!within(b.x, 0, COORD_MAX) || !within(b.y, 0, COORD_MAX)) throw bad(`x, y: screenshot pixel coordinates (0 to ${COORD_MAX})`);
      return { action: 'click', x: b.x, y: b.y };
    case 'type':
      if (typeof b.text !== 'string' || b.text.length < 1 || b.text.length > TEXT_MAX) throw bad(`text: 1 to ${TEXT_MAX} characters`);
      return { action: 'type', text: b.text };
    case 'key':
      if (typeof b.key !== 'string' || !(LOGIN_KEYS as readonly string[]).includes(b.key)) throw bad(`key: one of ${LOGIN_KEYS.join(', ')}`);
      return { action: 'key', key: b.key };
    case 'scroll':
      if (!within(b.dy, -SCROLL_MAX, SCROLL_MAX)) throw bad(`dy: pixels to scroll, -${SCROLL_MAX} to ${SCROLL_MAX}`);
      return { action: 'scroll', dy: b.dy };
    default:
      throw bad('action: one of click {x, y}, type {text}, key {key}, scroll {dy}');
  }
}

/** Human re-login in the profile's browser context (admin): start, watch (state + PNG), cancel. */
export function loginRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.post('/v1/profiles/:platform/:name/login', { config: { scope: 'admin' } }, async (req, reply) => {
    const { platform, name } = req.params as { platform: string; name: string };
    const adapter = d.registry.get(platform);
    if (!adapter) throw new ApiError('unsupported', `unknown platform "${platform.slice(0, 32)}"`);
    if (!NAME_RE.test(name)) throw new ApiError('invalid_request', 'name: letters, digits, _ . - only (1 to 64)');
    const body = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>;
    // A field the caller sent with the wrong type is the caller's mistake, never "no login page configured".
    if (body.login_url != null && typeof body.login_url !== 'string') throw bad('login_url: an http(s) URL string');
    if (body.success_cookie != null && typeof body.success_cookie !== 'string') throw bad('success_cookie: the cookie name that proves the login');
    // Replay mode promises that nothing reaches a network; the platform's own login page would.
    if (d.config.replay.length && body.login_url == null) {
      throw new ApiError('unsupported', `replay mode (CRAWLER_REPLAY) never reaches a network, and a human login opens ${adapter.id}'s real site; store cookies with POST /v1/profiles instead (or pass login_url for a page of your own)`);
    }
    const loginUrl = (body.login_url as string | undefined) ?? adapter.login?.url;
    const cookie = (body.success_cookie as string | undefined) ?? adapter.login?.successCookie;
    const domains = (body.domains as string[] | undefined) ?? adapter.login?.domains;
    if (typeof loginUrl !== 'string' || !/^https?:\/\//.test(loginUrl)) throw new ApiError('unsupported', `${adapter.id} has no login page configured; pass login_url, success_cookie and domains`);
    if (typeof cookie !== 'string' || !cookie) throw new ApiError('invalid_request', 'success_cookie: the cookie that proves the login');
    if (!Array.isArray(domains) || !domains.length || !domains.every((x) => typeof x === 'string')) throw new ApiError('invalid_request', 'domains: cookie domains such as [".weibo.com"]');
    const timeoutS = body.timeout_s === undefined ? TIMEOUT_S.default : body.timeout_s;
    if (typeof timeoutS !== 'number' || !(timeoutS >= TIMEOUT_S.min && timeoutS <= TIMEOUT_S.max)) throw new ApiError('invalid_request', `timeout_s: ${TIMEOUT_S.min} to ${TIMEOUT_S.max}`);
    const existing = await d.store.profileGet(adapter.id, name);
    let id: string;
    try {
      id = await d.logins.start({ platform: adapter.id, name, loginUrl, successWhen: { cookie }, domains, timeoutMs: timeoutS * 1000, cookies: existing?.cookies ?? null });
    } catch (e) {
      const code = (e as { code?: string }).code;
      throw new ApiError(code === 'unsupported' ? 'unsupported' : 'upstream_error', (e as Error).message, code === 'unsupported' ? 503 : 502);
    }
    const status = await d.logins.get(id, { screenshot: false });
    if (!status) throw new ApiError('not_found', 'the login ended before it could be shown');
    return reply.code(202).send(view(status));
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

  // The operator acts on the page the screenshots show: forms with a password work remotely too, not only QR codes.
  app.post('/v1/logins/:id/input', { config: { scope: 'admin' } }, async (req) => {
    const id = (req.params as { id: string }).id;
    const input = loginInput(req.body);
    let done: boolean | undefined;
    try {
      done = await d.logins.input(id, input);
    } catch (e) {
      throw new ApiError('upstream_error', `the login page did not take the input: ${String((e as Error).message).split('\n')[0]}`);
    }
    if (done === undefined) throw new ApiError('not_found', 'no such login');
    const s = await d.logins.get(id, { screenshot: false });
    if (!done || !s) throw new ApiError('invalid_request', `this login is ${s?.state ?? 'over'}; start a new one`, 409);
    return view(s);
  });

  app.delete('/v1/logins/:id', { config: { scope: 'admin' } }, async (req) => {
    const id = (req.params as { id: string }).id;
    if (!d.logins.cancel(id)) throw new ApiError('not_found', 'no waiting login with this id');
    return { ok: true, id, state: 'failed' };
  });
}
