import { createHash } from 'node:crypto';

/*
 * X-Bogus, the older ByteDance web signer (douyin, tiktok), as its published descriptions give it:
 *   u = md5(md5(query bytes)), e = md5(md5("")), a = md5(base64(rc4(key 00 01 0c, user agent)));
 *   19 bytes = 64, 0, 1, 12, u[14], u[15], e[14], e[15], a[14], a[15], time (4 bytes, big-endian),
 *              canvas constant (4 bytes), then the xor of the 18 before;
 *   X-Bogus = a custom-alphabet base64 of 0x02 0xff followed by rc4(key ff, those 19 bytes): 28 characters.
 * It is deterministic for a (query, user agent, unix seconds), so a derived vector can pin it.
 */
const ALPHABET = 'Dkdpgh4ZKsQB80/Mfvw36XI1R25-WUAlEi7NLboqYTOPuzmFjJnryx9HVGcaStCe';
/** The canvas fingerprint constant the web signer used. */
export const XBOGUS_CANVAS = 536919696;

export function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = new Uint8Array(256);
  for (let i = 0; i < 256; i++) s[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

const md5 = (data: Uint8Array | string): Buffer => createHash('md5').update(data).digest();

/** Base64 over 3-byte groups with the signer's own alphabet (input length a multiple of 3). */
function encode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  return out;
}

/** The X-Bogus value for exactly these query bytes (without a leading '?'), sent with this User-Agent. */
export function xBogus(query: string, userAgent: string, unixSeconds = Math.floor(Date.now() / 1000), canvas = XBOGUS_CANVAS): string {
  const u = md5(md5(Buffer.from(query, 'utf8')));
  const e = md5(md5(''));
  const a = md5(rc4(Uint8Array.of(0, 1, 12), Buffer.from(userAgent, 'latin1')).toString('base64'));
  const t = unixSeconds >>> 0;
  const c = canvas >>> 0;
  const bytes = [64, 0, 1, 12, u[14]!, u[15]!, e[14]!, e[15]!, a[14]!, a[15]!, t >>> 24, (t >>> 16) & 255, (t >>> 8) & 255, t & 255, c >>> 24, (c >>> 16) & 255, (c >>> 8) & 255, c & 255];
  bytes.push(bytes.reduce((x, b) => x ^ b, 0));
  return encode(Buffer.concat([Uint8Array.of(2, 255), rc4(Uint8Array.of(255), Uint8Array.from(bytes))]));
}
