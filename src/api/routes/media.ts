import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireToken } from '../auth.js';
import { notAllowed } from '../../media/errors.js';
import type { ApiDeps } from '../context.js';

const PROFILE_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** GET/HEAD /v1/media: public for images; the video variant uses a profile's session and needs a read token. */
export function mediaRoutes(app: FastifyInstance, d: ApiDeps): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, unknown>;
    const u = q.u;
    if (typeof u !== 'string') throw notAllowed('u: the encoded origin media URL is required (one u parameter)');
    const kind = q.kind ?? 'image';
    if (kind !== 'image' && kind !== 'video') throw notAllowed('kind: image or video');
    let video: { platform: string; cookies?: string; profile?: string } | undefined;
    if (kind === 'video') {
      requireToken(d.tokens, req, 'read');
      const platform = typeof q.platform === 'string' ? q.platform : '';
      const adapter = d.registry.get(platform);
      if (!adapter) throw notAllowed('platform: required for kind=video, one of the catalog sources');
      const profile = typeof q.profile === 'string' && q.profile ? q.profile : 'default';
      if (!PROFILE_RE.test(profile)) throw notAllowed('profile: letters, digits, _ . - only');
      video = { platform: adapter.id, profile, cookies: d.store.profileGet(adapter.id, profile)?.cookies ?? undefined };
    }
    const ac = new AbortController();
    req.raw.on('close', () => ac.abort());
    const answer = await d.media.open(
      {
        u,
        method: req.method === 'HEAD' ? 'HEAD' : 'GET',
        range: typeof req.headers.range === 'string' ? req.headers.range : undefined,
        ifNoneMatch: typeof req.headers['if-none-match'] === 'string' ? req.headers['if-none-match'] : undefined,
        ifModifiedSince: typeof req.headers['if-modified-since'] === 'string' ? req.headers['if-modified-since'] : undefined,
        video,
      },
      ac.signal,
    );
    reply.code(answer.status);
    for (const [k, v] of Object.entries(answer.headers)) reply.header(k, v);
    reply.header('cache-control', video ? 'private, max-age=3600' : 'public, max-age=86400');
    if (!answer.body) return reply.send();
    return reply.send(answer.body);
  };
  app.route({ method: ['GET', 'HEAD'], url: '/v1/media', exposeHeadRoute: false, handler });
}
