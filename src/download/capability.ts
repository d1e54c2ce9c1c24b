import { createHmac, timingSafeEqual } from 'node:crypto';

/** File URLs stay valid this long (they name stored bytes, not an origin that expires); re-signed by GET …/meta. */
export const FILE_URL_TTL_S = 30 * 86_400;
const BUCKET_S = 3600;

/** Signs /v1/files/{id} so a player or a plain `curl` opens it without a bearer header. */
export class FileSigner {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  sign(id: string): { exp: number; sig: string } {
    const exp = Math.ceil((Math.floor(this.now() / 1000) + FILE_URL_TTL_S) / BUCKET_S) * BUCKET_S;
    return { exp, sig: this.mac(id, exp) };
  }

  verify(id: string, exp: string, sig: string): 'ok' | 'expired' | 'invalid' {
    if (!/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{1,64}$/.test(sig)) return 'invalid';
    const given = Buffer.from(sig, 'base64url');
    const want = Buffer.from(this.mac(id, Number(exp)), 'base64url');
    if (given.length !== want.length || !timingSafeEqual(given, want)) return 'invalid';
    return Number(exp) * 1000 < this.now() ? 'expired' : 'ok';
  }

  /** The file's service URL, signed (relative unless the service knows its public URL). */
  url(id: string, base = ''): string {
    const { exp, sig } = this.sign(id);
    return `${base.replace(/\/+$/, '')}/v1/files/${encodeURIComponent(id)}?exp=${exp}&sig=${sig}`;
  }

  private mac(id: string, exp: number): string {
    // A domain tag apart from video URLs' ('video', …): one key, no signature valid for both.
    return createHmac('sha256', this.key).update(JSON.stringify(['file', id, exp])).digest().subarray(0, 16).toString('base64url');
  }
}
