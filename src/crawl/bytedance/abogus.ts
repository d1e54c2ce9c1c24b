import { createHash } from 'node:crypto';
import { rc4 } from './xbogus.js';

/*
 * a_bogus, douyin's current web signer, as its published descriptions give it (cn-platforms.md §1):
 *   p = sm3(sm3(query + "cus")), b = sm3(sm3(body + "cus")), u = sm3(custom-base64(rc4(key 00 01 0e, UA)));
 *   a table of ~50 numbered slots (fixed values, the start and end times of signing, the request options,
 *   p[21..22], b[21..22], u[23..24], the page id and aid, the fingerprint length), 44 of them picked in a
 *   fixed order, followed by the browser fingerprint string and the xor of the slots;
 *   that sequence is run through a keyed stream (a 256-entry table stepped like RC4), prefixed with 12
 *   random bytes of a fixed bit pattern, and written in a custom base64 alphabet.
 * It carries the time and random bytes, so two calls differ; a pinned clock and random source make it
 * reproducible for tests. Slot values above 255 (the time's high part) are kept as the page keeps them:
 * as char codes, not bytes.
 */
const ALPHABET_OUT = 'Dkdpgh2ZmsQB80/MfvV36XI1R45-WUAlEixNLwoqYTOPuzKFjJnry79HbGcaStCe';
const ALPHABET_UA = 'ckdp1h4ZKsUB80/Mfvw36XIgR25+WQAlEi7NLboqYTOPuzmFjJnryx9HVGDaStCe';
const SALT = 'cus';
const AID = 6383;
const PAGE_ID = 0;
/** GET [0, 1, 14]; POST [0, 1, 8]. */
const OPTIONS_GET = [0, 1, 14] as const;
const OPTIONS_POST = [0, 1, 8] as const;

// prettier-ignore
const STREAM_TABLE = [
  121, 243, 55, 234, 103, 36, 47, 228, 30, 231, 106, 6, 115, 95, 78, 101, 250, 207, 198, 50, 139, 227, 220, 105, 97, 143, 34, 28, 194, 215, 18, 100,
  159, 160, 43, 8, 169, 217, 180, 120, 247, 45, 90, 11, 27, 197, 46, 3, 84, 72, 5, 68, 62, 56, 221, 75, 144, 79, 73, 161, 178, 81, 64, 187,
  134, 117, 186, 118, 16, 241, 130, 71, 89, 147, 122, 129, 65, 40, 88, 150, 110, 219, 199, 255, 181, 254, 48, 4, 195, 248, 208, 32, 116, 167, 69, 201,
  17, 124, 125, 104, 96, 83, 80, 127, 236, 108, 154, 126, 204, 15, 20, 135, 112, 158, 13, 1, 188, 164, 210, 237, 222, 98, 212, 77, 253, 42, 170, 202,
  26, 22, 29, 182, 251, 10, 173, 152, 58, 138, 54, 141, 185, 33, 157, 31, 252, 132, 233, 235, 102, 196, 191, 223, 240, 148, 39, 123, 92, 82, 128, 109,
  57, 24, 38, 113, 209, 245, 2, 119, 153, 229, 189, 214, 230, 174, 232, 63, 52, 205, 86, 140, 66, 175, 111, 171, 246, 133, 238, 193, 99, 60, 74, 91,
  225, 51, 76, 37, 145, 211, 166, 151, 213, 206, 0, 200, 244, 176, 218, 44, 184, 172, 49, 216, 93, 168, 53, 21, 183, 41, 67, 85, 224, 155, 226, 242,
  87, 177, 146, 70, 190, 12, 162, 19, 137, 114, 25, 165, 163, 192, 23, 59, 9, 94, 179, 107, 35, 7, 142, 131, 239, 203, 149, 136, 61, 249, 14, 156,
];
/** The slots written out, in order. */
const PICK = [18, 20, 52, 26, 30, 34, 58, 38, 40, 53, 42, 21, 27, 54, 55, 31, 35, 57, 39, 41, 43, 22, 28, 32, 60, 36, 23, 29, 33, 37, 44, 45, 59, 46, 47, 48, 49, 50, 24, 25, 65, 66, 70, 71];
/** The slots folded into the check value. */
const XOR = [18, 20, 26, 30, 34, 38, 40, 42, 21, 27, 31, 35, 39, 41, 43, 22, 28, 32, 36, 23, 29, 33, 37, 44, 45, 46, 47, 48, 49, 50, 24, 25, 52, 53, 54, 55, 57, 58, 59, 60, 65, 66, 70, 71];

const sm3 = (data: string | Uint8Array): Buffer => createHash('sm3').update(data).digest();

/** Base64 bit-packing over char codes with a given alphabet; '=' pads the way the page does. */
function packBase64(codes: readonly number[], alphabet: string, padByBits: boolean): string {
  let out = '';
  if (padByBits) {
    // The UA form: a bit string of the bytes, 6 bits at a time, '=' per 2 padding bits.
    let bits = codes.map((c) => (c & 255).toString(2).padStart(8, '0')).join('');
    const pad = (6 - (bits.length % 6)) % 6;
    bits += '0'.repeat(pad);
    for (let i = 0; i < bits.length; i += 6) out += alphabet[parseInt(bits.slice(i, i + 6), 2)];
    return out + '='.repeat(pad / 2);
  }
  for (let i = 0; i < codes.length; i += 3) {
    const n = (codes[i]! << 16) | ((codes[i + 1] ?? 0) << 8) | (codes[i + 2] ?? 0);
    out += alphabet[(n & 0xfc0000) >> 18]! + alphabet[(n & 0x03f000) >> 12]!;
    if (i + 1 < codes.length) out += alphabet[(n & 0x0fc0) >> 6]!;
    if (i + 2 < codes.length) out += alphabet[n & 0x3f]!;
  }
  return out + '='.repeat((4 - (out.length % 4)) % 4);
}

/** The keyed stream over the fixed table (a fresh table per signature). */
function stream(codes: readonly number[]): number[] {
  const t = STREAM_TABLE.slice();
  const n = t.length;
  const out: number[] = [];
  let b = t[1]!;
  let held = 0;
  let e = 0;
  for (let i = 0; i < codes.length; i++) {
    let sum: number;
    if (i === 0) {
      held = t[b]!;
      sum = b + held;
      t[1] = held;
      t[b] = b;
    } else {
      sum = held + e;
    }
    out.push(codes[i]! ^ t[sum % n]!);
    const k = (i + 2) % n;
    e = t[k]!;
    const s = (b + e) % n;
    held = t[s]!;
    t[s] = t[k]!;
    t[k] = held;
    b = s;
  }
  return out;
}

/** 12 char codes: three groups of four carrying a random 14-bit number in a fixed bit pattern. */
function randomPrefix(random: () => number): number[] {
  const out: number[] = [];
  for (let g = 0; g < 3; g++) {
    const r = Math.floor(random() * 10000);
    out.push(((r & 255) & 170) | 1, ((r & 255) & 85) | 2, (((r >>> 8) & 170) | 5), (((r >>> 8) & 85) | 40));
  }
  return out;
}

/** A plausible desktop window/screen fingerprint, `inner|…|platform`, as the page reports it. */
export function browserFingerprint(random: () => number = Math.random, platform = 'Win32'): string {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const iw = int(1024, 1920);
  const ih = int(768, 1080);
  const ow = iw + int(24, 32);
  const oh = ih + int(75, 90);
  const sy = random() < 0.5 ? 0 : 30;
  const aw = int(1280, 1920);
  const ah = int(800, 1080);
  return `${iw}|${ih}|${ow}|${oh}|0|${sy}|0|0|${aw}|${ah}|${aw}|${ah}|${iw}|${ih}|24|24|${platform}`;
}

export interface ABogusInput {
  /** The exact query bytes sent (no leading '?'). */
  query: string;
  userAgent: string;
  /** The request body for POST; empty for GET. */
  body?: string;
  method?: 'GET' | 'POST';
  fingerprint: string;
  /** Clock (ms) and random source; pinned by tests. */
  now?: () => number;
  random?: () => number;
}

const hi32 = (ms: number, extra: number) => Math.floor(ms / 2 ** (32 + extra)) >> 0;

export function aBogus(input: ABogusInput): string {
  const now = input.now ?? Date.now;
  const random = input.random ?? Math.random;
  const options = input.method === 'POST' ? OPTIONS_POST : OPTIONS_GET;
  const start = now();
  const p = sm3(sm3(input.query + SALT));
  const b = sm3(sm3((input.body ?? '') + SALT));
  const ua = sm3(packBase64([...rc4(Uint8Array.of(0, 1, 14), Buffer.from(input.userAgent, 'latin1'))], ALPHABET_UA, true));
  const end = now();
  const fp = input.fingerprint;
  const slot = new Map<number, number>([
    [8, 3], [18, 44], [66, 0], [69, 0], [70, 0], [71, 0],
    [20, (start >>> 24) & 255], [21, (start >>> 16) & 255], [22, (start >>> 8) & 255], [23, start & 255], [24, hi32(start, 0)], [25, hi32(start, 8)],
    [26, (options[0] >>> 24) & 255], [27, (options[0] >>> 16) & 255], [28, (options[0] >>> 8) & 255], [29, options[0] & 255],
    [30, Math.floor(options[1] / 256) & 255], [31, options[1] % 256 & 255], [32, (options[1] >>> 24) & 255], [33, (options[1] >>> 16) & 255],
    [34, (options[2] >>> 24) & 255], [35, (options[2] >>> 16) & 255], [36, (options[2] >>> 8) & 255], [37, options[2] & 255],
    [38, p[21]!], [39, p[22]!], [40, b[21]!], [41, b[22]!], [42, ua[23]!], [43, ua[24]!],
    [44, (end >>> 24) & 255], [45, (end >>> 16) & 255], [46, (end >>> 8) & 255], [47, end & 255], [48, 3], [49, hi32(end, 0)], [50, hi32(end, 8)],
    [51, (PAGE_ID >>> 24) & 255], [52, (PAGE_ID >>> 16) & 255], [53, (PAGE_ID >>> 8) & 255], [54, PAGE_ID & 255], [55, PAGE_ID],
    [56, AID], [57, AID & 255], [58, (AID >>> 8) & 255], [59, (AID >>> 16) & 255], [60, (AID >>> 24) & 255],
    [64, fp.length], [65, fp.length],
  ]);
  const at = (i: number) => slot.get(i) ?? 0;
  const check = XOR.reduce((x, i) => x ^ at(i), 0);
  const codes = [...PICK.map(at), ...[...fp].map((c) => c.charCodeAt(0)), check];
  return packBase64([...randomPrefix(random), ...stream(codes)], ALPHABET_OUT, false);
}
