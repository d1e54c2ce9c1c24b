import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseRange } from '../../crawl/replay/range.js';
import { ApiError } from '../../domain/errors.js';
import { contentDisposition } from '../../download/names.js';
import type { DownloadFileRow } from '../../store/download-files.js';
import { requireToken } from '../auth.js';
import type { ApiDeps } from '../context.js';

const FILE_ID = /^f_[A-Za-z0-9_-]{1,64}$/;

/** Query of GET /v1/files/{id}, as documented; the handler enforces it. */
export const FileQuerySchema = z.object({
  exp: z.string().optional().describe('capability URL: expiry (unix seconds), signed by sig'),
  sig: z.string().optional().describe('capability URL: stands in for the bearer token (files[].url carries both)'),
});

function invalid(message: string): ApiError {
  const e = new ApiError('invalid_request', message);
  return e;
}

function idOf(req: FastifyRequest): string {
  const id = (req.params as { id?: string }).id ?? '';
  if (!FILE_ID.test(id)) throw new ApiError('not_found', 'no stored file has this id (ids look like f_…, as files[].id gives them)');
  return id;
}

/** /v1/files: the download action's stored files (capability URL or read token), their record, and pins. */
export function fileRoutes(app: FastifyInstance, d: ApiDeps): void {
  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    const q = req.query as Record<string, unknown>;
    for (const [k, v] of Object.entries(q)) if (Array.isArray(v)) throw invalid(`${k}: give it once`);
    const id = idOf(req);
    if (q.sig !== undefined || q.exp !== undefined) {
      const verdict = d.fileSigner.verify(id, String(q.exp ?? ''), String(q.sig ?? ''));
      if (verdict === 'invalid') throw invalid('sig: this file URL was altered or was not issued by this service; use files[].url as the result gives it');
      if (verdict === 'expired') throw invalid('exp: this file URL has expired; GET /v1/files/{id}/meta with a read token gives a fresh one');
    } else await requireToken(d.tokens, req, 'read');
    const opened = await d.downloads.open(id);
    if ('gone' in opened) throw new ApiError('not_found', opened.gone);
    const { row, size } = opened;
    const etag = `"${row.sha256.slice(0, 32)}"`;
    if (req.headers['if-none-match'] === etag) {
      fileHeaders(reply, row, etag);
      return reply.code(304).send();
    }
    // An empty file has no byte to range over: it is answered whole.
    const range = typeof req.headers.range === 'string' && size > 0 ? parseRange(req.headers.range, size) : undefined;
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();
    const start = range ? range.start : 0;
    const end = range ? range.end : size - 1;
    let body: Awaited<ReturnType<typeof d.downloads.read>> | undefined;
    if (req.method !== 'HEAD' && size > 0) {
      body = await d.downloads.read(row, { start, end });
      // Evicted by another process between the read of its row and now (answered before any cacheable header is set).
      if (!body) throw new ApiError('not_found', 'this file was evicted just now; download the post again to store it anew');
    }
    fileHeaders(reply, row, etag);
    if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
    reply.header('content-length', String(Math.max(0, end - start + 1)));
    if (req.method === 'HEAD') return reply.send();
    await d.downloads.touch(row.id);
    return reply.send(body ?? '');
  };
  app.route({ method: ['GET', 'HEAD'], url: '/v1/files/:id', exposeHeadRoute: false, handler: serve });

  const meta = async (id: string) => {
    const opened = await d.downloads.open(id);
    if ('gone' in opened) throw new ApiError('not_found', opened.gone);
    return metaOf(d, opened.row);
  };
  app.get('/v1/files/:id/meta', { config: { scope: 'read' } }, async (req) => meta(idOf(req)));
  const pin = (pinned: boolean) => async (req: FastifyRequest) => {
    const id = idOf(req);
    const opened = await d.downloads.open(id);
    if ('gone' in opened || !(await d.downloads.pin(id, pinned))) throw new ApiError('not_found', 'gone' in opened ? opened.gone : 'no stored file has this id');
    return meta(id);
  };
  app.post('/v1/files/:id/pin', { config: { scope: 'write' } }, pin(true));
  app.delete('/v1/files/:id/pin', { config: { scope: 'write' } }, pin(false));
}

function fileHeaders(reply: FastifyReply, row: DownloadFileRow, etag: string): void {
  reply
    .header('content-type', row.mime)
    .header('content-disposition', contentDisposition(row.name))
    .header('accept-ranges', 'bytes')
    .header('etag', etag)
    // The bytes under an id never change (content-addressed), but the URL is a capability: private caches only.
    .header('cache-control', 'private, max-age=86400, immutable');
}

function metaOf(d: ApiDeps, row: DownloadFileRow) {
  return {
    ...d.downloads.fileOf(row),
    platform: row.platform,
    native_id: row.native_id,
    created_at: new Date(row.created_at).toISOString(),
    last_access: new Date(row.last_access).toISOString(),
    pinned: row.pinned,
  };
}
