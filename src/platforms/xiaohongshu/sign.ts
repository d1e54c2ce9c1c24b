import { createHash, randomBytes, randomInt } from 'node:crypto';

/*
 * xiaohongshu's web request signature, ported from the published description of the algorithm (Cloxl/xhshow
 * @89a1e54: client.py, core/crypto.py, core/common_sign.py, core/crc32_encrypt.py, config/config.py; its Go
 * port Linso05/xhshow-go@49c5684 says the same). Nothing here is the site's code:
 *
 *   x-s        "XYS_" + b64'({x0, x1, x2, x3: "mns0301_" + b64x3(xor(payload)[:124]), x4})
 *   payload    version bytes, a random seed, the time twice (once folded and xor-ed), three small random
 *              numbers, the length of the signed string, md5(signed string)[:8] ^ seed, a1 (52 bytes), the
 *              app id (10 bytes) and a fixed checksum tail
 *   signed     path + "?" + query for a GET, path + the exact JSON body for a POST
 *   x-s-common b64'({s0, …, x5: a1, x8: b1, x9: crc32'(b1), …}) where b1 is an RC4-encrypted fingerprint
 *
 * The constants are the algorithm's (version 4.2.6). When the site moves on, CRAWLER_SIGN_MODE switches
 * xiaohongshu to its own page's signer without a release.
 */

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The alphabet of the x-s envelope, x-s-common and b1. */
const ENVELOPE_ALPHABET = 'ZmserbBoHQtNP+wOcza/LpngG8yJq42KWYj0DSfdikx3VT16IlUAFM97hECvuRX5';
/** The alphabet of the x3 field. */
const X3_ALPHABET = 'MfgqrsbcyzPQRStuvC7mn501HIJBo2DEFTKdeNOwxWXYZap89+/A4UVLhijkl63G';
const XOR_KEY = Buffer.from(
  '71a302257793271ddd273bcee3e4b98d9d7935e1da33f5765e2ea8afb6dc77a51a499d23b67c20660025860cbf13d4540d92497f58686c574e508f46e1956344f39139bf4faf22a3eef120b79258145b2feb5193b6478669961298e79bedca646e1a693a926154a5a7a1bd1cf0dedb742f917a747a1e388b234f2277',
  'hex',
);
const VERSION_BYTES = [119, 104, 96, 41];
const CHECKSUM_TAIL = [249, 65, 103, 103, 201, 181, 131, 99, 94, 7, 68, 250, 132, 21];
const X3_LENGTH = 124;
export const APP_ID = 'xhs-pc-web';
export const SIGN_VERSION = '4.2.6';
const B1_KEY = Buffer.from('xhswebmplfbt');

function translate(b64: string, alphabet: string): string {
  let out = '';
  for (const ch of b64) {
    const i = STANDARD.indexOf(ch);
    out += i < 0 ? ch : alphabet[i];
  }
  return out;
}

/** Base64 in the envelope's alphabet (x-s, x-s-common, b1). */
export const envelopeB64 = (data: Uint8Array | string): string => translate(Buffer.from(data).toString('base64'), ENVELOPE_ALPHABET);
export const x3B64 = (data: Uint8Array): string => translate(Buffer.from(data).toString('base64'), X3_ALPHABET);

export function envelopeB64Decode(text: string): Buffer {
  let std = '';
  for (const ch of text) {
    const i = ENVELOPE_ALPHABET.indexOf(ch);
    std += i < 0 ? ch : STANDARD[i];
  }
  return Buffer.from(std, 'base64');
}

const md5Hex = (s: string | Buffer): string => createHash('md5').update(s).digest('hex');

// ---------------------------------------------------------------------------------------------
// CRC32, in the standard form (a1) and in the site's JS variant (x-s-common's x9).

const CRC_TABLE: Uint32Array = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crcState(bytes: Iterable<number>): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)) >>> 0;
  return c;
}

/** The usual CRC32 (zlib), unsigned. */
export const crc32 = (data: string | Uint8Array): number => (crcState(typeof data === 'string' ? Buffer.from(data, 'utf8') : data) ^ 0xffffffff) >>> 0;

/**
 * The page's variant: characters as charCodeAt & 0xff, final value (-1 ^ c ^ 0xEDB88320) read as a signed
 * 32-bit integer.
 */
export function crc32Js(text: string): number {
  const codes = Array.from({ length: text.length }, (_, i) => text.charCodeAt(i) & 0xff);
  return (0xffffffff ^ crcState(codes) ^ 0xedb88320) | 0;
}

// ---------------------------------------------------------------------------------------------
// x-s

/** The random parts of one signature; tests pin them. */
export interface XsRandom {
  /** 32-bit seed. */
  seed: number;
  /** Seconds the second time stamp lies in the past, 10..50. */
  offsetS: number;
  /** 15..50. */
  sequence: number;
  /** 900..1200. */
  windowProps: number;
}

export const randomXs = (): XsRandom => ({
  seed: randomBytes(4).readUInt32LE(0),
  offsetS: randomInt(10, 51),
  sequence: randomInt(15, 51),
  windowProps: randomInt(900, 1201),
});

const le = (value: number | bigint, length: number): number[] => {
  let v = BigInt(value);
  const out: number[] = [];
  for (let i = 0; i < length; i++) {
    out.push(Number(v & 0xffn));
    v >>= 8n;
  }
  return out;
};

function fixedWidth(text: string, width: number): number[] {
  const bytes = [...Buffer.from(text, 'utf8').subarray(0, width)];
  while (bytes.length < width) bytes.push(0);
  return bytes;
}

/** The time folded into a checksum byte, then xor-ed with 41. */
function foldedTime(ms: number): number[] {
  const data = le(ms, 8);
  const sum1 = data[1]! + data[2]! + data[3]! + data[4]!;
  const sum2 = data[5]! + data[6]! + data[7]!;
  data[0] = ((sum1 & 0xff) + sum2) & 0xff;
  return data.map((b) => b ^ 41);
}

/** The 125 bytes before the xor; the last one is cut off after it. */
export function xsPayload(signString: string, a1: string, nowMs: number, rnd: XsRandom, appId = APP_ID): number[] {
  const md5 = Buffer.from(md5Hex(signString), 'hex');
  const seed0 = rnd.seed & 0xff;
  return [
    ...VERSION_BYTES,
    ...le(rnd.seed >>> 0, 4),
    ...foldedTime(nowMs),
    ...le(nowMs - rnd.offsetS * 1000, 8),
    ...le(rnd.sequence, 4),
    ...le(rnd.windowProps, 4),
    // Length in characters (code points), as the published implementation counts it.
    ...le([...signString].length, 4),
    ...[...md5.subarray(0, 8)].map((b) => b ^ seed0),
    52,
    ...fixedWidth(a1, 52),
    10,
    ...fixedWidth(appId, 10),
    1,
    1,
    seed0 ^ 115,
    ...CHECKSUM_TAIL,
  ];
}

/** The x3 field: "mns0301_" + the xor-ed payload's first 124 bytes. */
export function x3Of(signString: string, a1: string, nowMs: number, rnd: XsRandom): string {
  const payload = xsPayload(signString, a1, nowMs, rnd);
  const out = new Uint8Array(X3_LENGTH);
  for (let i = 0; i < X3_LENGTH; i++) out[i] = (payload[i]! ^ (i < XOR_KEY.length ? XOR_KEY[i]! : 0)) & 0xff;
  return `mns0301_${x3B64(out)}`;
}

/** Wraps an x3 value (ours, or the page's mnsv2 answer) into the x-s header. */
export function xsEnvelope(x3: string): string {
  return `XYS_${envelopeB64(JSON.stringify({ x0: SIGN_VERSION, x1: APP_ID, x2: 'Windows', x3, x4: '' }))}`;
}

export function signXs(signString: string, a1: string, nowMs: number, rnd: XsRandom = randomXs()): string {
  return xsEnvelope(x3Of(signString, a1, nowMs, rnd));
}

/** What is signed: the path and query for a GET, the path and the exact body for a POST. */
export function signString(path: string, query: string | undefined, body: string | undefined): string {
  if (body !== undefined) return path + body;
  return query ? `${path}?${query}` : path;
}

export const md5Of = md5Hex;

// ---------------------------------------------------------------------------------------------
// x-s-common and b1

/** The fingerprint fields b1 carries (the rest of the browser fingerprint never reaches b1). */
export function b1Fingerprint(nowMs: number, x36: number): Record<string, string | number> {
  return {
    x33: '0',
    x34: '0',
    x35: '0',
    x36: String(x36),
    x37: '0|0|0|0|0|0|0|0|0|1|0|0|0|0|0|0|0|0|1|0|0|0|0|0',
    x38: '0|0|1|0|1|0|0|0|0|0|1|0|1|0|1|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0|0',
    x39: 0,
    x42: '3.4.4',
    x43: '742cc32c',
    x44: String(nowMs),
    x45: '__SEC_CAV__1-1-1-1-1|__SEC_WSA__|',
    x46: 'false',
    x48: '',
    x49: '{list:[],type:}',
    x50: '',
    x51: '',
    x52: '',
    x82: '_0x17a2|_0x1954',
  };
}

export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = Array.from({ length: 256 }, (_, i) => i);
  let j = 0;
  for (let i = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = new Uint8Array(data.length);
  let i = 0;
  j = 0;
  for (let n = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

/** Characters encodeURIComponent leaves alone. */
const UNRESERVED = /[A-Za-z0-9\-_.!~*'()]/;

/**
 * b1: the fingerprint's JSON, RC4-encrypted, read back the way the page does it: the cipher bytes taken as
 * Latin-1 characters and URI-encoded, then every %XX turned into its byte and every literal kept, except
 * literals before the first escape, which that reading drops.
 */
export function b1Of(fingerprint: Record<string, string | number>): string {
  const cipher = rc4(B1_KEY, Buffer.from(JSON.stringify(fingerprint), 'utf8'));
  const utf8 = Buffer.from(Array.from(cipher, (b) => String.fromCharCode(b)).join(''), 'utf8');
  const first = utf8.findIndex((b) => !UNRESERVED.test(String.fromCharCode(b)));
  return envelopeB64(first < 0 ? Buffer.alloc(0) : utf8.subarray(first));
}

export const randomB1 = (nowMs = Date.now()): string => b1Of(b1Fingerprint(nowMs, randomInt(1, 21)));

export function signXsCommon(a1: string, b1: string): string {
  const body = {
    s0: 5,
    s1: '',
    x0: '1',
    x1: SIGN_VERSION,
    x2: 'Windows',
    x3: APP_ID,
    x4: '4.86.0',
    x5: a1,
    x6: '',
    x7: '',
    x8: b1,
    x9: crc32Js(b1),
    x10: 0,
    x11: 'normal',
  };
  return envelopeB64(JSON.stringify(body));
}

// ---------------------------------------------------------------------------------------------
// Trace ids

const HEX = 'abcdef0123456789';
const randomHex = (n: number): string => Array.from({ length: n }, () => HEX[randomInt(HEX.length)]).join('');

/** x-b3-traceid: 16 random hex characters. */
export const b3TraceId = (): string => randomHex(16);

/** x-xray-traceid: (ms << 23 | sequence) as 16 hex characters, then 16 random ones. */
export function xrayTraceId(nowMs: number, seq = randomInt(0, 8388608), tail = randomHex(16)): string {
  return (((BigInt(nowMs) << 23n) | BigInt(seq)) & 0xffffffffffffffffn).toString(16).padStart(16, '0') + tail;
}
