// Terminal text: platform strings go through `clean` before they reach a terminal (no escape sequences).

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]+/g;

// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?)/g;

/** One line, no control characters (a post's text may carry ANSI escapes or bidi overrides). */
export const clean = (s: string): string => s.replace(ESCAPES, '').replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

const isZeroWidth = (cp: number) => (cp >= 0x300 && cp <= 0x36f) || cp === 0xfe0f || cp === 0x200d;

const cellWidth = (ch: string) => {
  const cp = ch.codePointAt(0)!;
  return isZeroWidth(cp) ? 0 : isWide(cp) ? 2 : 1;
};

/** Columns a string takes on a terminal (CJK and emoji take two). */
export function width(s: string): number {
  let w = 0;
  for (const ch of s) w += cellWidth(ch);
  return w;
}

/** At most `max` columns, with an ellipsis when cut. */
export function fit(s: string, max: number): string {
  if (width(s) <= max) return s;
  let out = '';
  let w = 0;
  for (const ch of s) {
    const cw = cellWidth(ch);
    if (w + cw > max - 1) break;
    out += ch;
    w += cw;
  }
  return `${out}…`;
}

export const padEnd = (s: string, cols: number): string => s + ' '.repeat(Math.max(0, cols - width(s)));
export const padStart = (s: string, cols: number): string => ' '.repeat(Math.max(0, cols - width(s))) + s;

/** 1234 → 1.2k, 2500000 → 2.5M: a table cell, never the CSV or JSON value. */
export function compact(n: number): string {
  const abs = Math.abs(n);
  const unit = (d: number, u: string) => `${(n / d).toFixed(abs / d < 10 ? 1 : 0).replace(/\.0$/, '')}${u}`;
  if (abs >= 1e9) return unit(1e9, 'B');
  if (abs >= 1e6) return unit(1e6, 'M');
  if (abs >= 1e4) return unit(1e3, 'k');
  return String(n);
}

/** Unix seconds as `YYYY-MM-DD HH:MM` (UTC). */
export function time(unixSeconds: number | undefined): string {
  if (unixSeconds === undefined || !Number.isFinite(unixSeconds)) return '';
  return new Date(unixSeconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
}

/** 75 s → 1:15, 3725 s → 1:02:05 */
export function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}
