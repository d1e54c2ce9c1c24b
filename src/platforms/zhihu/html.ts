import { load } from '../../crawl/cheerio.js';

/*
 * Answers and articles carry their body as HTML: paragraphs, <br>, code blocks, figures whose <img> is a lazy
 * placeholder (an SVG data URL) with the picture in data-original (full size) or data-actualsrc, a <noscript>
 * copy of each figure, and formulas as <img eeimg> whose alt is the TeX.
 */

const BLOCKS = 'p, div, li, h1, h2, h3, h4, h5, h6, blockquote, pre, figure, figcaption, tr';

/** HTML → plain text: blocks end lines, formulas keep their TeX, search highlights (<em>) vanish. */
export function htmlToText(html: unknown): string {
  if (typeof html !== 'string' || html === '') return '';
  if (!/[<&]/.test(html)) return html.trim();
  const $ = load(html, null, false);
  $('noscript, script, style').remove();
  $('img[eeimg]').each((_, el) => {
    const tex = $(el).attr('alt');
    $(el).replaceWith(tex ? ` ${tex} ` : '');
  });
  $('img').remove();
  $('br').replaceWith('\n');
  $('hr').replaceWith('\n');
  $(BLOCKS).each((_, el) => {
    $(el).append('\n');
  });
  return $.root()
    .text()
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface HtmlImage {
  url: string;
  w?: number;
  h?: number;
}

const positive = (v: string | undefined): number | undefined => {
  const n = v === undefined ? NaN : Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The picture's key (v2-<hash>), so the _b/_r/_720w renditions of one image count once. */
const imageKey = (url: string): string => /\/(v2-[0-9a-f]{16,})/i.exec(url)?.[1] ?? url;

/** Pictures in a body, in order, once each, largest rendition first; placeholders and formulas skipped. */
export function imagesFromHtml(html: unknown): HtmlImage[] {
  if (typeof html !== 'string' || !/<img/i.test(html)) return [];
  const $ = load(html, null, false);
  const out: HtmlImage[] = [];
  const seen = new Set<string>();
  const consider = (attrs: Record<string, string | undefined>): void => {
    if (attrs.eeimg !== undefined) return;
    const raw = [attrs['data-original'], attrs['data-actualsrc'], attrs.src].find((u) => u && /^(https?:)?\/\//i.test(u));
    if (!raw) return;
    const url = raw.startsWith('//') ? `https:${raw}` : raw;
    if (/\/equation\?/.test(url)) return;
    const key = imageKey(url);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ url, w: positive(attrs['data-rawwidth']), h: positive(attrs['data-rawheight']) });
  };
  $('img').each((_, el) => consider((el as { attribs?: Record<string, string> }).attribs ?? {}));
  // <noscript> bodies are text to the parser: their <img> is read from a second pass.
  $('noscript').each((_, el) => {
    const inner = $(el).text();
    if (/<img/i.test(inner)) load(inner, null, false)('img').each((__, img) => consider((img as { attribs?: Record<string, string> }).attribs ?? {}));
  });
  return out;
}

/** The js-initialData JSON of a zhihu page (answers, articles, questions, people, the topsearch page). */
export function initialData(html: string): Record<string, unknown> | undefined {
  const m = /<script[^>]*\bid="js-initialData"[^>]*>([\s\S]*?)<\/script>/i.exec(html);
  if (!m) return undefined;
  try {
    const v = JSON.parse(m[1]!) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
