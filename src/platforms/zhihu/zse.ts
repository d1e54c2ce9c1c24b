import { createHash, randomInt } from 'node:crypto';

/*
 * Zhihu's request signature (x-zse-93 / x-zse-96), ported from its published description
 * (cn-platforms.md §6: zly2006/zhihu-plus-plus ZhihuFetchSignature.kt and rs-zse-sign, NanmiCoder/MediaCrawler
 * libs/zhihu.js). The header is "2.0_" + zse_v4(md5_hex(source)), source = "101_3_3.0+<path?query>+<d_c0>"
 * (+ "+<body>"). zse_v4 is an SM4-shaped block cipher with zhihu's own S-box and round keys, chained like CBC
 * from a fixed first-block mask, then written in a private base64 alphabet read from the end with a light XOR.
 * The first plaintext byte is random in the page (Math.random()*127); the tests pin it.
 */
export const ZSE_93 = '101_3_3.0';

/** Round keys (32 words). */
const ROUND_KEYS = Uint32Array.from([
  1170614578, 1024848638, 1413669199, 3951632832, 3528873006, 2921909214, 4151847688, 3997739139,
  1933479194, 3323781115, 3888513386, 460404854, 3747539722, 2403641034, 2615871395, 2119585428,
  2265697227, 2035090028, 2773447226, 4289380121, 4217216195, 2200601443, 3051914490, 1579901135,
  1321810770, 456816404, 2903323407, 4065664991, 330002838, 3506006750, 363569021, 2347096187,
]);

/** The byte substitution box. */
const SBOX = Uint8Array.from([
  20, 223, 245, 7, 248, 2, 194, 209, 87, 6, 227, 253, 240, 128, 222, 91, 237, 9, 125, 157, 230, 93, 252, 205, 90, 79, 144, 199, 159, 197, 186, 167,
  39, 37, 156, 198, 38, 42, 43, 168, 217, 153, 15, 103, 80, 189, 71, 191, 97, 84, 247, 95, 36, 69, 14, 35, 12, 171, 28, 114, 178, 148, 86, 182,
  32, 83, 158, 109, 22, 255, 94, 238, 151, 85, 77, 124, 254, 18, 4, 26, 123, 176, 232, 193, 131, 172, 143, 142, 150, 30, 10, 146, 162, 62, 224, 218,
  196, 229, 1, 192, 213, 27, 110, 56, 231, 180, 138, 107, 242, 187, 54, 120, 19, 44, 117, 228, 215, 203, 53, 239, 251, 127, 81, 11, 133, 96, 204, 132,
  41, 115, 73, 55, 249, 147, 102, 48, 122, 145, 106, 118, 74, 190, 29, 16, 174, 5, 177, 129, 63, 113, 99, 31, 161, 76, 246, 34, 211, 13, 60, 68,
  207, 160, 65, 111, 82, 165, 67, 169, 225, 57, 112, 244, 155, 51, 236, 200, 233, 58, 61, 47, 100, 137, 185, 64, 17, 70, 234, 163, 219, 108, 170, 166,
  59, 149, 52, 105, 24, 212, 78, 173, 45, 0, 116, 226, 119, 136, 206, 135, 175, 195, 25, 92, 121, 208, 126, 139, 3, 75, 141, 21, 130, 98, 241, 40,
  154, 66, 184, 49, 181, 46, 243, 88, 101, 183, 8, 23, 72, 188, 104, 179, 210, 134, 250, 201, 164, 89, 216, 202, 220, 50, 221, 152, 140, 33, 235, 214,
]);

const ALPHABET = '6fpLRqJO8M/c3jnYxFkUVC4ZIG12SiH=5v0mXDazWBTsuw7QetbKdoPyAl+hN9rgE';
/** The first block's chaining mask: this ASCII key, each byte XOR 42. */
const FIRST_MASK = Uint8Array.from(Buffer.from('059053f7d15e01d7', 'ascii'), (b) => b ^ 42);
/** Every fourth byte, counted from the end, is XORed with this before the base64 step. */
const TAIL_XOR = 58;

const rotl = (x: number, n: number): number => ((x << n) | (x >>> (32 - n))) >>> 0;

function substituteAndMix(word: number): number {
  const b =
    ((SBOX[(word >>> 24) & 0xff]! << 24) | (SBOX[(word >>> 16) & 0xff]! << 16) | (SBOX[(word >>> 8) & 0xff]! << 8) | SBOX[word & 0xff]!) >>> 0;
  return (b ^ rotl(b, 2) ^ rotl(b, 10) ^ rotl(b, 18) ^ rotl(b, 24)) >>> 0;
}

/** 32 rounds over one 16-byte block (big-endian words); the output is the last four words reversed. */
function encryptBlock(block: Uint8Array): Uint8Array {
  const view = new DataView(block.buffer, block.byteOffset, 16);
  const x = [view.getUint32(0), view.getUint32(4), view.getUint32(8), view.getUint32(12)];
  for (let i = 0; i < 32; i++) {
    x.push((x[i]! ^ substituteAndMix((x[i + 1]! ^ x[i + 2]! ^ x[i + 3]! ^ ROUND_KEYS[i]!) >>> 0)) >>> 0);
  }
  const out = new Uint8Array(16);
  const o = new DataView(out.buffer);
  o.setUint32(0, x[35]!);
  o.setUint32(4, x[34]!);
  o.setUint32(8, x[33]!);
  o.setUint32(12, x[32]!);
  return out;
}

/** The page URI-encodes its input first (a no-op for the md5 hex it is given). */
const uriBytes = (input: string): Uint8Array => Buffer.from(encodeURIComponent(input), 'utf8');

function encodeTail(bytes: Uint8Array): string {
  const padded = new Uint8Array(Math.ceil(bytes.length / 3) * 3);
  padded.set(bytes);
  let out = '';
  let counter = 0;
  const masked = (b: number): number => (b ^ (counter++ % 4 === 0 ? TAIL_XOR : 0)) & 0xff;
  for (let p = padded.length - 1; p >= 2; p -= 3) {
    const v = masked(padded[p]!) | (masked(padded[p - 1]!) << 8) | (masked(padded[p - 2]!) << 16);
    out += ALPHABET[v & 63]! + ALPHABET[(v >>> 6) & 63]! + ALPHABET[(v >>> 12) & 63]! + ALPHABET[(v >>> 18) & 63]!;
  }
  return out;
}

/** zse_v4 of a string; `lead` is the random first byte (0-126), drawn when absent. */
export function zseV4(input: string, lead: number = randomInt(127)): string {
  const body = uriBytes(input);
  const len = 2 + body.length;
  const pad = 16 - (len % 16);
  const plain = new Uint8Array(len + pad);
  plain[0] = lead & 0xff;
  plain[1] = 0;
  plain.set(body, 2);
  plain.fill(pad, len);
  const cipher = new Uint8Array(plain.length);
  let chain: Uint8Array = FIRST_MASK;
  for (let off = 0; off < plain.length; off += 16) {
    const mixed = new Uint8Array(16);
    for (let i = 0; i < 16; i++) mixed[i] = plain[off + i]! ^ chain[i]!;
    chain = encryptBlock(mixed);
    cipher.set(chain, off);
  }
  return encodeTail(cipher);
}

export const md5Hex = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex');

/** The string zhihu's page signs: version, path with query, the d_c0 cookie value as sent, the body if any. */
export function signSource(pathWithQuery: string, dc0: string, body?: string): string {
  return [ZSE_93, pathWithQuery, dc0, ...(body ? [body] : [])].join('+');
}

/** x-zse-96 for a request. */
export function zse96(pathWithQuery: string, dc0: string, body?: string, lead?: number): string {
  return `2.0_${zseV4(md5Hex(signSource(pathWithQuery, dc0, body)), lead)}`;
}
