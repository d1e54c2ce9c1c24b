import { authorCsv, commentCsv, itemCsv, trendCsv, type CsvColumn, type Shape } from './columns.js';
import { csvCell, csvLine } from './csv.js';

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The shapes whose rows make a table: cards, comments, trends, the author (one row). */
export type ExportShape = 'items' | 'comments' | 'trends' | 'creator';

export const isExportShape = (s: Shape): s is ExportShape => s === 'items' || s === 'comments' || s === 'trends' || s === 'creator';

export const EXPORT_CONTENT_TYPE: Record<ExportFormat, string> = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** Bytes gathered before a chunk goes out: one write per row would cost a syscall per card. */
const CHUNK_CHARS = 64 * 1024;
const identity = (u: string | undefined) => u;

/** The stable column set of a shape (documented in README "Exports"). */
export function exportColumns(shape: ExportShape, resolve: (u: string | undefined) => string | undefined = identity): Array<CsvColumn<never>> {
  switch (shape) {
    case 'items':
      return itemCsv(resolve) as Array<CsvColumn<never>>;
    case 'comments':
      return commentCsv as Array<CsvColumn<never>>;
    case 'trends':
      return trendCsv as Array<CsvColumn<never>>;
    case 'creator':
      return authorCsv(resolve) as Array<CsvColumn<never>>;
  }
}

/** The rows of a finished result of this shape: its cards, comments or trends, or its author alone. */
export function* resultRows(shape: ExportShape, result: unknown): Iterable<object> {
  if (!result || typeof result !== 'object') return;
  const r = result as { items?: unknown; data?: { trends?: unknown; author?: unknown } };
  const list = shape === 'items' || shape === 'comments' ? r.items : shape === 'trends' ? r.data?.trends : r.data?.author ? [r.data.author] : [];
  if (Array.isArray(list)) for (const row of list) if (row && typeof row === 'object') yield row as object;
}

/**
 * The export as text chunks of about 64 KiB, row by row: only one chunk is held at a time, whatever
 * the number of rows. CSV starts with the header even when there are no rows.
 */
export async function* exportChunks(
  format: ExportFormat,
  shape: ExportShape,
  rows: AsyncIterable<object> | Iterable<object>,
  resolve?: (u: string | undefined) => string | undefined,
): AsyncGenerator<string> {
  const columns = format === 'csv' ? exportColumns(shape, resolve) : undefined;
  let buf = columns ? csvLine(columns.map((c) => csvCell(c.header))) : '';
  for await (const row of rows) {
    buf += columns ? csvLine(columns.map((c) => csvCell(c.value(row as never), c.id))) : `${JSON.stringify(row)}\n`;
    if (buf.length >= CHUNK_CHARS) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

/**
 * Writes an export to a stream, waiting for 'drain' whenever the stream's buffer is full (memory stays
 * bounded by one chunk plus the stream's high-water mark). Stops early if the stream closes (the
 * reader left). Does not end the stream: the caller may append or end it.
 */
export async function streamExport(
  out: NodeJS.WritableStream & { destroyed?: boolean },
  format: ExportFormat,
  shape: ExportShape,
  rows: AsyncIterable<object> | Iterable<object>,
  resolve?: (u: string | undefined) => string | undefined,
): Promise<void> {
  for await (const chunk of exportChunks(format, shape, rows, resolve)) {
    if (out.destroyed) return;
    if (!out.write(chunk) && !(await drained(out))) return;
  }
}

/** True once the stream drained, false if it closed or failed first; leaves no listener behind. */
function drained(out: NodeJS.WritableStream): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      out.off('error', onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    out.on('drain', onDrain);
    out.on('close', onClose);
    out.on('error', onClose);
  });
}
