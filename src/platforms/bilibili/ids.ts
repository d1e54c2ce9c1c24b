/*
 * av ↔ BV conversion, the published algorithm (2024 revision, valid for aids below 2^51): the aid is
 * OR-ed with 2^51, XOR-ed with a fixed code, written in base 58 over a fixed alphabet into the 9
 * characters after "BV1", and two character pairs are swapped. Doing it locally saves a request and
 * lets one recording serve both id forms.
 */
const ALPHABET = 'FcwAPNKTMug3GV5Lj7EJnHpWsx4tb8haYeviqBz6rkCy12mUSDQX9RdoZf';
const XOR_CODE = 23442827791579n;
const MASK_CODE = 2251799813685247n;
const MAX_AID = 1n << 51n;
const BASE = 58n;

export const BVID_RE = /^BV1[1-9A-HJ-NP-Za-km-z]{9}$/;

/** Swaps positions 3↔9 and 4↔7, the permutation the algorithm applies both ways. */
function swapped(chars: string[]): string[] {
  const out = [...chars];
  [out[3], out[9]] = [out[9], out[3]];
  [out[4], out[7]] = [out[7], out[4]];
  return out;
}

export function isBvid(s: string): boolean {
  return BVID_RE.test(s);
}

export function isAid(s: string): boolean {
  if (!/^[1-9]\d{0,15}$/.test(s)) return false;
  return BigInt(s) < MAX_AID;
}

export function aidToBvid(aid: string | number | bigint): string {
  const n = BigInt(aid);
  if (n <= 0n || n >= MAX_AID) throw new RangeError(`aid ${String(aid)} is outside the convertible range`);
  const chars = 'BV1000000000'.split('');
  let tmp = (MAX_AID | n) ^ XOR_CODE;
  for (let i = chars.length - 1; tmp > 0n; i--) {
    chars[i] = ALPHABET[Number(tmp % BASE)];
    tmp /= BASE;
  }
  return swapped(chars).join('');
}

export function bvidToAid(bvid: string): string {
  if (!isBvid(bvid)) throw new RangeError(`"${bvid}" is not a BV id`);
  let tmp = 0n;
  for (const ch of swapped(bvid.split('')).slice(3)) tmp = tmp * BASE + BigInt(ALPHABET.indexOf(ch));
  return String((tmp & MASK_CODE) ^ XOR_CODE);
}
