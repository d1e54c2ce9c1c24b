import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../domain/errors.js';
import { shapeOf } from '../../exports/columns.js';
import { EXPORT_CONTENT_TYPE, EXPORT_FORMATS, exportChunks, isExportShape, resultRows, type ExportFormat } from '../../exports/stream.js';
import type { ApiDeps } from '../context.js';
import { callerOf } from './tasks.js';

/** Query of GET /v1/tasks/{id}/export, as documented; parseExportQuery enforces it with the spec's messages. */
export const ExportQuerySchema = z.object({
  format: z.enum(EXPORT_FORMATS).default('jsonl').describe('jsonl: one JSON row a line; csv: RFC 4180 with a stable column set per result shape'),
});

function parseExportQuery(q: Record<string, unknown>): ExportFormat {
  for (const k of Object.keys(q)) if (k !== 'format') throw new ApiError('invalid_request', `${k}: unknown query parameter (format)`);
  const f = q.format;
  if (f === undefined) return 'jsonl';
  if (typeof f !== 'string') throw new ApiError('invalid_request', 'format: give it once');
  if (!(EXPORT_FORMATS as readonly string[]).includes(f)) throw new ApiError('invalid_request', `format: one of ${EXPORT_FORMATS.join(', ')}`);
  return f as ExportFormat;
}

export function exportRoutes(app: FastifyInstance, d: ApiDeps): void {
  app.get('/v1/tasks/:id/export', { config: { scope: 'read' } }, async (req, reply) => {
    const format = parseExportQuery(req.query as Record<string, unknown>);
    const row = await d.tasks.get((req.params as { id: string }).id, callerOf(req));
    const shape = shapeOf(row.action);
    if (!isExportShape(shape)) throw new ApiError('invalid_request', `a ${row.action} result is not a table: read it with GET /v1/tasks/${row.id}`);
    if (row.status !== 'succeeded' || row.result === null) {
      throw new ApiError('invalid_request', `the task is ${row.status}: only a succeeded task can be exported${row.status === 'queued' || row.status === 'running' ? '; wait for it (GET /v1/tasks/{id}/stream) and ask again' : ''}`, 409);
    }
    // The result is stored as one text; what is streamed is the export, one chunk at a time.
    const rows = resultRows(shape, JSON.parse(row.result));
    const ext = format === 'csv' ? 'csv' : 'jsonl';
    return reply
      .type(EXPORT_CONTENT_TYPE[format])
      .header('content-disposition', `attachment; filename="${row.source}-${row.action}-${row.id}.${ext}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(exportChunks(format, shape, rows), { objectMode: false }));
  });
}
