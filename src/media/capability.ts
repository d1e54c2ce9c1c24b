import { createHmac, timingSafeEqual } from 'node:crypto';

/** Capability URLs stay valid this long; expiries fall on the hour so a page of URLs caches well. */
export const CAPABILITY_TTL_S = 48 * 3600;
const BUCKET_S = 3600;
const SIG_BYTES = 16;

/**
 * Signs video URLs so `<video src>` plays them without a bearer header: the signature covers the
 * origin URL, the platform, the profile whose session fetches it, and the expiry.
 */
export class MediaSigner {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  sign(u: string, platform: string, profile: string): { exp: number; sig: string } {
    const exp = Math.ceil((Math.floor(this.now() / 1000) + CAPABILITY_TTL_S) / BUCKET_S) * BUCKET_S;
    return { exp, sig: this.mac(u, platform, profile, exp) };
  }

  verify(u: string, platform: string, profile: string, exp: string, sig: string): 'ok' | 'expired' | 'invalid' {
    if (!/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{1,64}$/.test(sig)) return 'invalid';
    const given = Buffer.from(sig, 'base64url');
    const want = Buffer.from(this.mac(u, platform, profile, Number(exp)), 'base64url');
    if (given.length !== want.length || !timingSafeEqual(given, want)) return 'invalid';
    return Number(exp) * 1000 < this.now() ? 'expired' : 'ok';
  }

  /** The earliest expiry (unix s) of the capability URLs in a result's JSON text, if any. */
  earliestExpiry(text: string): number | undefined {
    let min: number | undefined;
    for (const m of text.matchAll(/[?&]exp=(\d{1,12})&sig=/g)) min = min === undefined ? Number(m[1]) : Math.min(min, Number(m[1]));
    return min;
  }

  /** The same text with every capability URL signed afresh. */
  resign(text: string): string {
    return text.replace(/(\/v1\/media\?u=([^&"]+)&kind=video&platform=([^&"]+)&profile=([^&"]+))&exp=\d{1,12}&sig=[A-Za-z0-9_-]+/g, (_all, head: string, u: string, platform: string, profile: string) => {
      const { exp, sig } = this.sign(decodeURIComponent(u), decodeURIComponent(platform), decodeURIComponent(profile));
      return `${head}&exp=${exp}&sig=${sig}`;
    });
  }

  private mac(u: string, platform: string, profile: string, exp: number): string {
    return createHmac('sha256', this.key).update(JSON.stringify(['video', u, platform, profile, exp])).digest().subarray(0, SIG_BYTES).toString('base64url');
  }
}
