import type { TableColumn } from './columns.js';
import { clean, fit, padEnd, padStart, width } from './text.js';

const GAP = '  ';

/** Rows as aligned columns in `total` terminal columns; the flex column takes what the others leave. */
export function table<T>(rows: T[], columns: Array<TableColumn<T>>, total: number): string {
  const cells = rows.map((r) => columns.map((c) => c.cell(r)));
  const natural = columns.map((c, i) => Math.min(c.max ?? Infinity, Math.max(width(c.header), ...cells.map((row) => width(row[i]!)))));
  const flex = columns.findIndex((c) => c.flex);
  const widths = [...natural];
  if (flex >= 0) {
    const others = natural.reduce((sum, w, i) => (i === flex ? sum : sum + w), 0) + GAP.length * (columns.length - 1);
    widths[flex] = Math.max(width(columns[flex]!.header), Math.min(natural[flex]!, total - others));
  }
  const line = (values: string[]) =>
    values
      .map((v, i) => {
        const cut = fit(v, widths[i]!);
        return i === values.length - 1 && !columns[i]!.right ? cut : columns[i]!.right ? padStart(cut, widths[i]!) : padEnd(cut, widths[i]!);
      })
      .join(GAP)
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n') + '\n';
}

/** A record as `key  value` lines (a creator, a write result, a task). */
export function keyValues(pairs: Array<[string, string | number | boolean | undefined]>, total: number): string {
  const shown = pairs.filter(([, v]) => v !== undefined && v !== '');
  const keyWidth = Math.max(0, ...shown.map(([k]) => width(k)));
  return shown.map(([k, v]) => `${padEnd(k, keyWidth)}  ${fit(clean(String(v)), Math.max(10, total - keyWidth - 2))}`).join('\n') + '\n';
}
