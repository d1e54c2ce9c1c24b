import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseRange } from '../../crawl/replay/range.js';
import { ApiError } from '../../domain/errors.js';
import type { PreviewState } from '../../media/preview/service.js';
import type { ApiDeps } from '../context.js';

const ID_MAX = 512;
const WARM_MAX = 100;

const PreviewKey = {
  platform: z.string().describe('the item\'s provider'),
  id: z.string().min(1).max(ID_MAX).describe("the item's native id (the part of Item.id after the colon)"),
};
/** Query of GET /v1/preview, as documented; the handler enforces it. */
export const PreviewQuerySchema = z.object(PreviewKey);
/** Body of POST /v1/preview/warm, as documented; the handler enforces it. */
export const PreviewWarmBodySchema = z.object({ items: z.array(z.object(PreviewKey)).max(WARM_MAX) });

function unavailable(reply: FastifyReply, reason: string, message?: string) {
  return reply.code(404).send({ code: 'preview_unavailable', reason, ...(message ? { message } : {}) });
}

/** /v1/preview (public) and /v1/preview/warm (token): the scrub clip's state machine per the spec. */
export function previewRoutes(app: FastifyInstance, d: ApiDeps): void {
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, unknown>;
    if (typeof q.platform !== 'string' || typeof q.id !== 'string' || !q.id || q.id.length > ID_MAX) {
      throw new ApiError('invalid_request', 'platform and id are required (id: the item\'s native id, at most 512 characters)');
    }
    const adapter = d.registry.get(q.platform);
    if (!adapter) return unavailable(reply, 'unsupported', `unknown platform "${q.platform.slice(0, 64)}"`);
    const state = await d.previews.request(adapter.id, q.id);
    return answer(req, reply, state, d);
  };
  app.route({ method: ['GET', 'HEAD'], url: '/v1/preview', exposeHeadRoute: false, handler });

  app.post('/v1/preview/warm', { config: { scope: 'read' } }, async (req) => {
    const body = req.body as { items?: unknown };
    if (!body || typeof body !== 'object' || !Array.isArray(body.items)) throw new ApiError('invalid_request', 'body: expected {items: [{platform, id}]}');
    if (body.items.length > WARM_MAX) throw new ApiError('invalid_request', `items: at most ${WARM_MAX} per call`);
    const items = body.items.map((raw, i) => {
      const it = raw as { platform?: unknown; id?: unknown };
      if (!it || typeof it.platform !== 'string' || typeof it.id !== 'string' || !it.id || it.id.length > ID_MAX) {
        throw new ApiError('invalid_request', `items[${i}]: expected {platform, id}`);
      }
      return { platform: it.platform, id: it.id };
    });
    return {
      items: await Promise.all(items.map(async ({ platform, id }) => {
        const adapter = d.registry.get(platform);
        if (!adapter) return { platform, id, status: 'unavailable', reason: 'unsupported' };
        const s = await d.previews.request(adapter.id, id);
        const url = d.urls.preview(adapter.id, id);
        if (s.status === 'ready') return { platform: adapter.id, id, status: 'ready', url, w: s.w, h: s.h, seconds: s.seconds };
        if (s.status === 'rendering') return { platform: adapter.id, id, status: 'rendering', url };
        if (s.status === 'busy') return { platform: adapter.id, id, status: 'busy' };
        return { platform: adapter.id, id, status: 'unavailable', reason: s.reason };
      })),
    };
  });
}

async function answer(req: FastifyRequest, reply: FastifyReply, state: PreviewState, d: ApiDeps) {
  if (state.status === 'rendering') return reply.code(202).header('retry-after', '2').send({ status: 'rendering' });
  if (state.status === 'busy') {
    return reply.code(429).header('retry-after', '10').send({ ok: false, error: { code: 'rate_limited', message: 'the preview render queue is full; retry later', retryable: true } });
  }
  if (state.status === 'unavailable') return unavailable(reply, state.reason, state.message);
  const etag = `"p-${state.size}-${Math.round(state.mtime)}"`;
  if (req.headers['if-none-match'] === etag) return clipHeaders(reply, etag).code(304).send();
  const range = typeof req.headers.range === 'string' ? parseRange(req.headers.range, state.size) : undefined;
  if (range === 'unsatisfiable') return clipHeaders(reply, etag).code(416).header('content-range', `bytes */${state.size}`).send();
  const start = range ? range.start : 0;
  const end = range ? range.end : state.size - 1;
  const body = req.method === 'HEAD' ? undefined : await d.previews.open(state.key, { start, end });
  // Gone between the state read and the open (another node replaced or removed it): it renders anew on request.
  if (req.method !== 'HEAD' && !body) return unavailable(reply, 'expired', 'the clip went away; request it again to render it anew');
  clipHeaders(reply, etag);
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${state.size}`);
  reply.header('content-length', String(end - start + 1));
  return reply.send(body);
}

function clipHeaders(reply: FastifyReply, etag: string): FastifyReply {
  return reply.header('content-type', 'video/mp4').header('accept-ranges', 'bytes').header('etag', etag).header('cache-control', 'public, max-age=86400');
}
