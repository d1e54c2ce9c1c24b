import type { HttpResponse } from '../../crawl/http.js';

/*
 * Tieba still serves some pages in GBK (older templates, search, the forum links in search results), the
 * rest in UTF-8. A body is decoded by the charset its answer declares: the Content-Type header first, then a
 * <meta charset> / <meta http-equiv="Content-Type"> near the top (the HTML precedence), else UTF-8.
 * Node 20's TextDecoder knows 'gbk' (WHATWG maps gbk/gb2312 to the gb18030 decoder, a superset).
 */
const GBK_LABELS = /^(?:gbk|gb2312|gb_2312(?:-80)?|gb18030|x-gbk|cp936|windows-936|chinese|csgb2312|iso-ir-58)$/i;

export type Charset = 'utf-8' | 'gbk';

export function charsetLabel(label: string | undefined): Charset | undefined {
  const l = label?.trim().replace(/^["']|["']$/g, '');
  if (!l) return undefined;
  if (GBK_LABELS.test(l)) return 'gbk';
  if (/^utf-?8$/i.test(l)) return 'utf-8';
  return undefined;
}

/** The charset a response declares: header, else meta tag in the first 4 KB, else undefined. */
export function declaredCharset(headers: Record<string, string>, body: Buffer): Charset | undefined {
  const fromHeader = /charset\s*=\s*([^;\s]+)/i.exec(headers['content-type'] ?? '')?.[1];
  const h = charsetLabel(fromHeader);
  if (h) return h;
  const head = body.subarray(0, 4096).toString('latin1');
  const meta = /<meta[^>]+charset\s*=\s*["']?\s*([\w-]+)/i.exec(head)?.[1];
  return charsetLabel(meta);
}

export function decode(bytes: Uint8Array, charset: Charset): string {
  return new TextDecoder(charset === 'gbk' ? 'gbk' : 'utf-8').decode(bytes);
}

/** The answer's text in the charset it declares (UTF-8 when it declares none). */
export function bodyText(res: Pick<HttpResponse, 'headers' | 'body'>): string {
  return decode(res.body, declaredCharset(res.headers, res.body) ?? 'utf-8');
}

/** Percent-decoding to bytes ('+' is a space in form encoding); undefined for a malformed escape. */
export function percentBytes(raw: string): Uint8Array | undefined {
  const out: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '%') {
      const hex = raw.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
      out.push(parseInt(hex, 16));
      i += 2;
    } else if (c === '+') out.push(0x20);
    else out.push(...Buffer.from(c, 'utf8'));
  }
  return Uint8Array.from(out);
}

/** Characters a forum or user name plausibly holds: ASCII, CJK ideographs and punctuation, full-width forms, kana, hangul, emoji. */
function plausible(s: string): boolean {
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) {
      if (cp < 0x20) return false;
      continue;
    }
    if ((cp >= 0x3000 && cp <= 0x30ff) || (cp >= 0x3400 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xff00 && cp <= 0xffef) || (cp >= 0x2000 && cp <= 0x206f) || cp >= 0x1f000) continue;
    return false;
  }
  return true;
}

/**
 * A query value (kw=, un=, qw=) as tieba links write it: UTF-8 when the link says ie=utf-8, GBK when it
 * says ie=gbk, else guessed. Both decodings can be valid byte-wise, so the guess prefers the one that reads
 * as a name (a GBK name decoded as UTF-8 turns into Latin or Cyrillic letters; the reverse into private-use
 * or replacement characters), and UTF-8 on a tie.
 */
export function decodeQueryValue(raw: string, ie?: string): string | undefined {
  const bytes = percentBytes(raw);
  if (!bytes) return undefined;
  const declared = charsetLabel(ie);
  if (declared) return decode(bytes, declared);
  let utf8: string | undefined;
  try {
    utf8 = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    utf8 = undefined;
  }
  if (utf8 !== undefined && plausible(utf8)) return utf8;
  let gbk: string | undefined;
  try {
    gbk = new TextDecoder('gbk', { fatal: true }).decode(bytes);
  } catch {
    gbk = undefined;
  }
  if (gbk !== undefined && plausible(gbk)) return gbk;
  return utf8 ?? gbk ?? decode(bytes, 'utf-8');
}

/** The raw (still percent-encoded) values of a URL's query, first occurrence of each name. */
export function rawQuery(url: URL): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of url.search.replace(/^\?/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
    if (!out.has(name)) out.set(name, eq < 0 ? '' : part.slice(eq + 1));
  }
  return out;
}
