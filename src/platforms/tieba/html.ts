import { load, type CheerioAPI } from '../../crawl/cheerio.js';

/*
 * Helpers for tieba's server-rendered pages: Bigpipe pagelets (the forum page ships its thread list inside
 * `<code class="pagelet_html"><!-- … --></code>` for its scripts to paste in), `PageData.x = {…}` object
 * literals in inline scripts (JavaScript, not JSON: bare or quoted keys, single or double quotes), and
 * dates written in China time.
 */

/** The page with every Bigpipe pagelet's HTML put back in place, so one parse sees it all. */
export function unwrapPagelets(html: string): string {
  return html.replace(/<code\b[^>]*class="pagelet_html"[^>]*>\s*<!--([\s\S]*?)-->\s*<\/code>/g, '<div class="pagelet">$1</div>');
}

export function loadPage(html: string): CheerioAPI {
  return load(unwrapPagelets(html));
}

/** The `{…}` text assigned to `PageData.<name>` (or `var PageData`), brace-matched outside strings. */
export function pageDataBlock(html: string, name?: string): string | undefined {
  const re = name ? new RegExp(`PageData\\.${name}\\s*=\\s*\\{`, 'g') : /var\s+PageData\s*=\s*\{/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const start = m.index + m[0].length - 1;
    let depth = 0;
    let quote = '';
    for (let i = start; i < html.length && i < start + 200_000; i++) {
      const c = html[i]!;
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = '';
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return html.slice(start, i + 1);
    }
  }
  return undefined;
}

/** A JavaScript string literal's value ('…' or "…", with \uXXXX and \/ escapes). */
export function jsString(literal: string): string {
  let inner = '';
  const body = literal.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\') {
      const next = body[i + 1] ?? '';
      inner += next === "'" ? "'" : `\\${next}`;
      i++;
    } else inner += c === '"' ? '\\"' : c;
  }
  try {
    return JSON.parse(`"${inner.replace(/\\x([0-9a-fA-F]{2})/g, '\\u00$1')}"`) as string;
  } catch {
    return inner;
  }
}

/** One top-level field of a PageData object literal: a string, a number, or undefined. */
export function jsField(block: string | undefined, key: string): string | number | undefined {
  if (!block) return undefined;
  const m = new RegExp(`(?:^|[{,\\s])["']?${key}["']?\\s*:\\s*("(?:\\\\.|[^"\\\\])*"|'(?:\\\\.|[^'\\\\])*'|-?\\d+(?:\\.\\d+)?)`).exec(block);
  if (!m) return undefined;
  const v = m[1]!;
  return v[0] === '"' || v[0] === "'" ? jsString(v) : Number(v);
}

export const fieldString = (block: string | undefined, key: string): string | undefined => {
  const v = jsField(block, key);
  if (v === undefined) return undefined;
  const s = String(v).trim();
  return s ? s : undefined;
};

/** `2024-08-05 16:56`, `2024-8-6 22:11` (tieba writes China time, UTC+8) → unix seconds. */
export function chinaTime(text: string | undefined): number | undefined {
  const m = /(\d{4})-(\d{1,2})-(\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/.exec(text ?? '');
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  return Date.UTC(y, mo - 1, d, h - 8, mi, s) / 1000;
}

/** A fragment's readable text: <br> as line breaks, emoticons as [表情], images dropped, whitespace tidied per line. */
export function fragmentText(html: string): string {
  // Source line breaks are layout whitespace; only <br> breaks a line.
  const $ = load(`<div id="x">${html.replace(/\s*[\r\n]+\s*/g, ' ').replace(/<br\s*\/?>/gi, '\n')}</div>`);
  // What the page's scripts add around a post (DOM snapshots carry it): not the author's words.
  $('script, style, .replace_tip, .p_forbidden_tip, .save_face_card, .post_bubble_top, .post_bubble_bottom').remove();
  $('img.BDE_Smiley').replaceWith('[表情]');
  $('img').remove();
  return $('#x')
    .text()
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0\u3000]+/g, ' ').trim())
    .filter((l, i, all) => l || (i > 0 && all[i - 1]))
    .join('\n')
    .trim();
}

/** JSON in an HTML attribute (data-field), entities already decoded by the parser. */
export function attrJson(value: string | undefined): Record<string, unknown> | undefined {
  if (!value) return undefined;
  try {
    const v = JSON.parse(value) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
