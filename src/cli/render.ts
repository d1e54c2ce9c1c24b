import type { Author, CommentsResult, CreatorResult, Envelope, TrendResult, WriteResult } from '../../client/dist/index.js';
import { exportColumns, isExportShape, resultRows } from '../exports/stream.js';
import { commentTable, itemTable, trendTable, writeCsv, type CsvColumn, type Shape } from './columns.js';
import { csvCell, csvLine } from '../exports/csv.js';
import { keyValues, table } from './table.js';

export type Format = 'table' | 'json' | 'ndjson' | 'csv';

export interface Out {
  write(text: string): void;
  /** Terminal width for tables. */
  columns: number;
}

/** The rows a result is made of: cards, comments, trends, the author (as an export has them), or the write result itself. */
export function rowsOf(shape: Shape, result: unknown): unknown[] {
  if (!result || typeof result !== 'object') return [];
  return isExportShape(shape) ? [...resultRows(shape, result)] : [result];
}

function csvColumns(shape: Shape, resolve: (u: string | undefined) => string | undefined): Array<CsvColumn<never>> | undefined {
  if (shape === 'write') return writeCsv as Array<CsvColumn<never>>;
  return isExportShape(shape) ? exportColumns(shape, resolve) : undefined;
}

export const csvHeader = <T>(columns: Array<CsvColumn<T>>) => csvLine(columns.map((c) => csvCell(c.header)));
export const csvRow = <T>(columns: Array<CsvColumn<T>>, row: T) => csvLine(columns.map((c) => csvCell(c.value(row), c.id)));

/**
 * Prints a run's output: ndjson and csv as each page arrives (streamable), table and json once at the
 * end. `result` is the whole result (pages merged), for json and the table's key-value shapes.
 */
export class Printer {
  private readonly buffered: unknown[] = [];
  private headerDone = false;

  constructor(
    private readonly format: Format,
    private readonly shape: Shape,
    private readonly out: Out,
    private readonly resolve: (u: string | undefined) => string | undefined,
  ) {}

  rows(rows: unknown[]): void {
    if (this.format === 'ndjson') {
      for (const r of rows) this.out.write(`${JSON.stringify(r)}\n`);
    } else if (this.format === 'csv') {
      const columns = csvColumns(this.shape, this.resolve);
      if (!columns) throw new Error(`--csv has no columns for this action: use --json or --ndjson`);
      if (!this.headerDone) this.out.write(csvHeader(columns));
      this.headerDone = true;
      for (const r of rows) this.out.write(csvRow(columns, r as never));
    } else {
      this.buffered.push(...rows);
    }
  }

  /** Ends the output; csv still prints its header when no row came, so the file has its columns. */
  end(result: unknown): void {
    if (this.format === 'json') return this.out.write(`${JSON.stringify(result, null, 2)}\n`);
    if (this.format === 'csv' && !this.headerDone) this.rows([]);
    if (this.format !== 'table') return;
    const w = this.out.columns;
    switch (this.shape) {
      case 'items':
        return this.out.write(this.buffered.length ? table(this.buffered as never[], itemTable as never, w) : '');
      case 'comments':
        return this.out.write(this.buffered.length ? table(this.buffered as never[], commentTable as never, w) : '');
      case 'trends':
        return this.out.write(this.buffered.length ? table(this.buffered as never[], trendTable as never, w) : '');
      case 'creator': {
        const a = this.buffered[0] as Author | undefined;
        if (!a) return;
        return this.out.write(keyValues([['id', a.id], ['source', a.source], ['handle', a.handle], ['name', a.name], ['followers', a.followers], ['following', a.following], ['posts', a.posts], ['likes', a.likes], ['verified', a.verified], ['url', a.url], ['bio', a.bio]], w));
      }
      case 'write': {
        const r = this.buffered[0] as WriteResult | undefined;
        if (!r) return;
        return this.out.write(keyValues([['state', r.state], ['ok', r.ok], ['url', r.url], ['target', r.target], ['task_id', r.task_id], ['error', r.error ? `${r.error.code}: ${r.error.message}` : undefined]], w));
      }
      default:
        return this.out.write(`${JSON.stringify(result, null, 2)}\n`);
    }
  }
}
