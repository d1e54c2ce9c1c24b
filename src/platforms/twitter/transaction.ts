import { createHash, randomInt } from 'node:crypto';
import { load } from '../../crawl/cheerio.js';

/*
 * x-client-transaction-id, computed natively. The algorithm is the one x.com's web client runs (its
 * `ondemand.s.<hash>a.js`, now `sign.o-<hash>.js` chunk), as published and re-implemented by
 * twscrape (xclid.py), twikit (x_client_transaction) and FxEmbed (proxy/transaction), with write-ups at
 * antibot.blog; the facts used here:
 *
 * - key bytes: the base64 `content` of <meta name="twitter-site-verification"> on an x.com page;
 * - frames: the page's <svg id="loading-x-anim-N"> elements; in each, the first <g>'s second <path> has a
 *   `d` attribute whose text after its first 9 characters splits on 'C' into 16 rows of numbers (every
 *   run of non-digits is a separator); the frame used is key[5] mod the number of frames;
 * - indices: every `(x[NN], 16)` in the signing chunk gives an index into the key bytes; the first picks
 *   the row (key[i] mod 16), the others multiply (key[i] mod 16 each) into a frame time, rounded to the
 *   nearest 10, then divided by 4096;
 * - the row animates: colour from row[0..2] to row[3..5], rotation from 0 to row[6] scaled to 60..360
 *   (floored), timed by a cubic bezier whose 4 control values are row[7..10] scaled to 0..1 (odd ones to
 *   -1..1), rounded to 2 decimals; the key is the hex of the rounded colour channels and of the 2x2
 *   rotation matrix entries (absolute, 2 decimals, hex with a fraction part), then "0","0", without '.'/'-';
 * - per request: seconds since 2023-05-01T07:00:00Z (1682924400), SHA-256 of
 *   `${METHOD}!${path}!${seconds}obfiowerehiring${animationKey}`, and the bytes
 *   [key…, seconds as 4 little-endian bytes, first 16 hash bytes, 3] XORed with one random byte that
 *   leads them, base64 without padding.
 */

export interface TransactionKeys {
  keyBytes: number[];
  animationKey: string;
}

const KEYWORD = 'obfiowerehiring';
const EXTRA_BYTE = 3;
const TIME_ORIGIN_S = 1682924400;
const INDEX_PATTERN = /\(\w\[(\d{1,2})\],\s*16\)/g;

export class TransactionPageError extends Error {}

/** The verification key's bytes from an x.com page. */
export function pageKeyBytes(html: string): number[] {
  const $ = load(html);
  const content = $('meta[name="twitter-site-verification"]').first().attr('content');
  if (!content) throw new TransactionPageError('the x.com page carries no twitter-site-verification key');
  const bytes = [...Buffer.from(content, 'base64')];
  if (bytes.length < 6) throw new TransactionPageError('the twitter-site-verification key is too short');
  return bytes;
}

/** The animation rows of one loading frame, picked by key[5]. */
export function pageFrameRows(html: string, keyBytes: number[]): number[][] {
  const $ = load(html);
  const frames = $('svg[id^="loading-x-anim"]').toArray();
  if (!frames.length) throw new TransactionPageError('the x.com page carries no loading-x-anim frames');
  const frame = frames[keyBytes[5]! % frames.length]!;
  const g = $(frame).children('g').first();
  const d = g.children('path').eq(1).attr('d');
  if (!d) throw new TransactionPageError('the loading-x-anim frame has no second path');
  return d
    .slice(9)
    .split('C')
    .map((seg) => seg.replace(/[^\d]+/g, ' ').trim())
    .filter(Boolean)
    .map((seg) => seg.split(' ').map(Number));
}

/** The key-byte indices of the signing chunk: [row index, ...frame-time indices]. */
export function chunkIndices(js: string): number[] {
  const out: number[] = [];
  for (const m of js.matchAll(INDEX_PATTERN)) out.push(Number(m[1]));
  if (out.length < 2) throw new TransactionPageError('the signing chunk carries no key-byte indices');
  return out;
}

/** value in 0..255 scaled into [min, max]; floored, or rounded to 2 decimals as the page does. */
function scale(value: number, min: number, max: number, floor: boolean): number {
  const v = (value * (max - min)) / 255 + min;
  return floor ? Math.floor(v) : Number(v.toFixed(2));
}

/** y of a unit cubic bezier (control points (c0,c1), (c2,c3)) at x = t, by bisection as the page does. */
export function bezierAt(c: readonly number[], t: number): number {
  const [x1, y1, x2, y2] = c as [number, number, number, number];
  const curve = (a: number, b: number, m: number): number => 3 * a * (1 - m) * (1 - m) * m + 3 * b * (1 - m) * m * m + m * m * m;
  if (t <= 0) {
    const slope = x1 > 0 ? y1 / x1 : y1 === 0 && x2 > 0 ? y2 / x2 : 0;
    return slope * t;
  }
  if (t >= 1) {
    const slope = x2 < 1 ? (y2 - 1) / (x2 - 1) : x2 === 1 && x1 < 1 ? (y1 - 1) / (x1 - 1) : 0;
    return 1 + slope * (t - 1);
  }
  let lo = 0;
  let hi = 1;
  let mid = 0;
  while (lo < hi) {
    mid = (lo + hi) / 2;
    const x = curve(x1, x2, mid);
    if (Math.abs(t - x) < 0.00001) return curve(y1, y2, mid);
    if (x < t) lo = mid;
    else hi = mid;
  }
  return curve(y1, y2, mid);
}

/** A non-negative number in hex with its fraction digits ("0.5" → ".8", "1" → "1", "0" → ""). */
export function hexOf(x: number): string {
  let int = Math.floor(x);
  let frac = x - int;
  let head = '';
  while (int > 0) {
    head = (int % 16).toString(16) + head;
    int = Math.floor(int / 16);
  }
  if (frac === 0) return head;
  let tail = '.';
  while (frac > 0) {
    frac *= 16;
    const digit = Math.floor(frac);
    frac -= digit;
    tail += digit.toString(16);
  }
  return head + tail;
}

export function animationKey(row: readonly number[], t: number): string {
  if (row.length < 11) throw new TransactionPageError(`an animation row holds ${row.length} numbers, 11 expected`);
  const from = [row[0]!, row[1]!, row[2]!];
  const to = [row[3]!, row[4]!, row[5]!];
  const turn = scale(row[6]!, 60, 360, true);
  const controls = row.slice(7, 11).map((v, i) => scale(v, i % 2 ? -1 : 0, 1, false));
  const f = bezierAt(controls, t);
  const colour = from.map((a, i) => Math.min(255, Math.max(0, a * (1 - f) + to[i]! * f)));
  const rad = (turn * f * Math.PI) / 180;
  const matrix = [Math.cos(rad), -Math.sin(rad), Math.sin(rad), Math.cos(rad)];
  const parts = colour.map((c) => Math.round(c).toString(16));
  for (const m of matrix) {
    const hex = hexOf(Math.abs(Number(m.toFixed(2))));
    parts.push(hex.startsWith('.') ? `0${hex}` : hex || '0');
  }
  parts.push('0', '0');
  return parts.join('').replace(/[.-]/g, '');
}

/** Everything per-page: the key bytes and the animation key, from a page and its signing chunk. */
export function deriveKeys(html: string, chunkJs: string): TransactionKeys {
  const keyBytes = pageKeyBytes(html);
  const [rowIndex, ...timeIndices] = chunkIndices(chunkJs) as [number, ...number[]];
  const rows = pageFrameRows(html, keyBytes);
  const at = (i: number): number => {
    const b = keyBytes[i];
    if (b === undefined) throw new TransactionPageError(`key-byte index ${i} is past the key (${keyBytes.length} bytes)`);
    return b;
  };
  const row = rows[at(rowIndex) % 16];
  if (!row) throw new TransactionPageError(`the frame holds ${rows.length} rows, row ${at(rowIndex) % 16} wanted`);
  const frameTime = Math.round(timeIndices.reduce((p, i) => p * (at(i) % 16), 1) / 10) * 10;
  return { keyBytes, animationKey: animationKey(row, frameTime / 4096) };
}

/** The header value for one request; `path` is the URL path without the query. */
export function transactionId(keys: TransactionKeys, method: string, path: string, nowMs = Date.now(), random = randomInt(256)): string {
  const seconds = Math.floor((nowMs - TIME_ORIGIN_S * 1000) / 1000);
  const time = [0, 1, 2, 3].map((i) => (seconds >>> (i * 8)) & 0xff);
  const hash = createHash('sha256').update(`${method.toUpperCase()}!${path}!${seconds}${KEYWORD}${keys.animationKey}`).digest();
  const payload = [...keys.keyBytes, ...time, ...hash.subarray(0, 16), EXTRA_BYTE];
  const out = Buffer.from([random & 0xff, ...payload.map((b) => b ^ (random & 0xff))]);
  return out.toString('base64').replace(/=+$/, '');
}

/**
 * Where the signing chunk lives: the legacy webpack page names it in its chunk maps
 * (`NNN:"ondemand.s"` and `NNN:"<hash>"`), the current build links or imports `sign.o-<hash>.js`.
 */
export function signingChunkUrl(html: string): string | undefined {
  const direct = /https:\/\/[\w.-]+\/[\w./-]*?\b(?:ondemand\.s|sign\.o)[\w.-]*\.js/.exec(html)?.[0];
  if (direct) return direct;
  const idx = /[,{](\d+):["']ondemand\.s["']/.exec(html)?.[1];
  if (!idx) return undefined;
  const hash = new RegExp(`[,{]${idx}:"([0-9a-f]+)"`).exec(html)?.[1];
  return hash ? `https://abs.twimg.com/responsive-web/client-web/ondemand.s.${hash}a.js` : undefined;
}

/** A relative `sign.o-….js` import inside a bundle chunk, made absolute. */
export function signingChunkIn(js: string, base: string): string | undefined {
  const ref = /(?:\.{0,2}\/)?[\w./-]*?\b(?:ondemand\.s|sign\.o)[\w.-]*\.js/.exec(js)?.[0];
  return ref ? new URL(ref, base).toString() : undefined;
}

/** The x-web bundle chunks a page links (where the signing chunk is imported from). */
export function pageScripts(html: string): string[] {
  return [...new Set(html.match(/https:\/\/[\w.-]+\/(?:x-web|responsive-web\/client-web)\/[\w./-]+\.js/g) ?? [])];
}
