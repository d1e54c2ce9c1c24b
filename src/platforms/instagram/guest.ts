import { UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { readPage } from './outcomes.js';
import { WWW } from './refs.js';

/*
 * A logged-out visitor's GraphQL calls carry the page's LSD token (form `lsd`, header X-FB-LSD) and the
 * csrftoken cookie of one home-page load, with the cookies it set (mid, ig_did, datr); yt-dlp and FxEmbed
 * mint them the same way (global-platforms.md §2). Kept in the account's guest jar, bound to its
 * User-Agent, and minted again when Instagram refuses them.
 */
export interface Guest {
  lsd: string;
  csrftoken: string;
  /** Cookie header of the cookies the home page set. */
  cookie: string;
}

const GUEST_KEY = 'instagram:guest';
const GUEST_TTL_MS = 6 * 3600_000;

/** LSD from `<script id="__eqmc">{…"l":"…"}`, else the `["LSD",[],{"token":"…"}` config entry. */
export function lsdIn(html: string): string | undefined {
  const eqmc = /<script\b[^>]*\bid=["']__eqmc["'][^>]*>([\s\S]*?)<\/script>/i.exec(html)?.[1];
  if (eqmc) {
    try {
      const l = (JSON.parse(eqmc) as { l?: unknown }).l;
      if (typeof l === 'string' && l) return l;
    } catch {
      /* fall through to the config entry */
    }
  }
  return /\["LSD",\[\],\{"token":"([^"]+)"/.exec(html)?.[1];
}

/** name=value of every Set-Cookie line (HttpClient joins them with newlines). */
export function setCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of (header ?? '').split('\n')) {
    const first = line.split(';')[0]?.trim() ?? '';
    const eq = first.indexOf('=');
    if (eq > 0 && first.slice(eq + 1) && first.slice(eq + 1) !== '""') out.set(first.slice(0, eq), first.slice(eq + 1));
  }
  return out;
}

export async function guestTokens(ctx: CrawlContext): Promise<Guest> {
  const known = ctx.guest.get<Guest>(GUEST_KEY);
  if (known) return known;
  const what = 'instagram home page (guest tokens)';
  const res = await ctx.http.request({ url: `${WWW}/`, followRedirects: false, headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' } });
  const html = readPage(res, ctx, what);
  const cookies = setCookies(res.headers['set-cookie']);
  const csrftoken = cookies.get('csrftoken') ?? /"csrf_token":"([^"]+)"/.exec(html)?.[1];
  const lsd = lsdIn(html);
  if (!lsd || !csrftoken) throw new UpstreamError(`${what}: no ${lsd ? 'csrftoken' : 'LSD token'} on the page (${html.length} characters)`);
  cookies.set('csrftoken', csrftoken);
  const guest: Guest = { lsd, csrftoken, cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  ctx.guest.set(GUEST_KEY, guest, GUEST_TTL_MS);
  return guest;
}

/** Forgets the minted tokens; false when there were none. */
export function dropGuest(ctx: CrawlContext): boolean {
  const had = ctx.guest.get(GUEST_KEY) !== undefined;
  ctx.guest.delete(GUEST_KEY);
  return had;
}
