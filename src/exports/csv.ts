/** A cell a spreadsheet would run as a formula starts with one of these (OWASP's CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | undefined | null;

/**
 * One RFC 4180 cell. Text that a spreadsheet would evaluate is prefixed with `'`; numbers the CLI
 * itself formats are left alone. `quote` forces quotes on a value (id columns, so they are never read
 * as numbers by tools that honour quoting); an absent value stays an empty cell.
 */
export function csvCell(v: CsvValue, quote = false): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return quote || /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: string[]): string => `${cells.join(',')}\r\n`;
