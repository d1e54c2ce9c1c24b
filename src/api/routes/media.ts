import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireToken } from '../auth.js';
import { MediaError } from '../../media/errors.js';
import type { ApiDeps } from '../context.js';

function invalid(message: string): MediaError {
  const e = new MediaError('invalid_request', message);
  e.retryable = false;
  return e;
}

const PROFILE_RE = /^[A-Za-z0-9_.-]{1,64}$/;

/** Query of GET /v1/media, as documented; the handler enforces it. Results carry these URLs ready-made. */
export const MediaQuerySchema = z.object({
  u: z.string().min(1).describe('the origin media URL, percent-encoded; its host must be a known platform CDN'),
  kind: z.enum(['image', 'video']).default('image'),
  platform: z.string().optional().describe('kind=video: the catalog source whose session fetches the stream'),
  profile: z.string().regex(PROFILE_RE).default('default').describe('kind=video: the stored login to fetch as'),
  exp: z.string().optional().describe('kind=video capability URL: expiry (unix seconds), signed by sig'),
  sig: z.string().optional().describe('kind=video capability URL: stands in for the bearer token'),
});

/** GET/HEAD /v1/media: public for images; the video variant uses a profile's session and needs a read token. */
export function mediaRoutes(app: FastifyInstance, d: ApiDeps): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, unknown>;
    for (const [k, v] of Object.entries(q)) if (Array.isArray(v)) throw invalid(`${k}: give it once`);
    const u = q.u;
    if (typeof u !== 'string' || !u) throw invalid('u: the encoded origin media URL is required');
    const kind = q.kind ?? 'image';
    if (kind !== 'image' && kind !== 'video') throw invalid('kind: image or video');
    let video: { platform: string; cookies?: string; profile?: string } | undefined;
    if (kind === 'video') {
      const platform = typeof q.platform === 'string' ? q.platform : '';
      const adapter = d.registry.get(platform);
      if (!adapter) throw invalid('platform: required for kind=video, one of the catalog sources');
      const profile = typeof q.profile === 'string' && q.profile ? q.profile : 'default';
      if (!PROFILE_RE.test(profile)) throw invalid('profile: letters, digits, _ . - only');
      if (q.sig !== undefined || q.exp !== undefined) {
        // A capability URL from a result: its signature stands in for the bearer token.
        const verdict = d.mediaSigner.verify(u, platform, profile, String(q.exp ?? ''), String(q.sig ?? ''));
        if (verdict === 'invalid') throw invalid('sig: this video URL was altered or was not issued by this service; use media[].url as a result gives it');
        if (verdict === 'expired') throw invalid('exp: this video URL has expired; crawl the item again for a fresh one');
      } else await requireToken(d.tokens, req, 'read');
      video = { platform: adapter.id, profile, cookies: (await d.store.profileGet(adapter.id, profile))?.cookies ?? undefined };
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
