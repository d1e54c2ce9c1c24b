import { Blocked, CrawlError, UpstreamError } from './errors.js';
import type { CrawlContext, PageSigning } from '../platforms/types.js';

/**
 * How a signed endpoint gets its signature: our own port of the platform's algorithm (`native`), the
 * platform's own script in the profile's browser page (`browser`), or native first and the page when the
 * platform refuses the native signature (`auto`, the default).
 */
export type SignMode = 'native' | 'browser' | 'auto';
export const SIGN_MODES: readonly SignMode[] = ['native', 'browser', 'auto'];

/** Keys are `platform` or `platform.endpoint`; the more specific one wins. */
export type SignModes = ReadonlyMap<string, SignMode>;

/**
 * Parses CRAWLER_SIGN_MODE: `douyin=browser,tiktok.comments=native`. Lets an operator switch a platform
 * whose signer changed to its page's own code by configuration, without a release.
 */
export function parseSignModes(spec: string): Map<string, SignMode> {
  const out = new Map<string, SignMode>();
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z0-9_-]+(?:\.[a-z0-9_-]+)?)\s*=\s*([a-z]+)$/i.exec(part);
    const mode = m?.[2]?.toLowerCase() as SignMode | undefined;
    if (!m || !mode || !SIGN_MODES.includes(mode)) {
      throw new Error(`"${part}" is not platform[.endpoint]=${SIGN_MODES.join('|')}`);
    }
    out.set(m[1]!.toLowerCase(), mode);
  }
  return out;
}

export function signModeFor(modes: SignModes | undefined, platform: string, endpoint: string): SignMode {
  return modes?.get(`${platform}.${endpoint}`) ?? modes?.get(platform) ?? 'auto';
}

/**
 * Thrown by a native-signed request when the platform's answer smells of a refused signature (an empty 200,
 * a verify page): a block as far as the caller is concerned, but one the page's own signer may get past.
 */
export class SignatureRefused extends Blocked {}

export interface SignedRoutes<T> {
  /** Signs with our port and sends. */
  native: () => Promise<T>;
  /** Signs with the platform's code in the page (or lets the page send) and returns the same thing. */
  browser: (signer: PageSigning) => Promise<T>;
}

/**
 * Runs one signed request in the configured mode. In `auto`, a SignatureRefused from the native route
 * retries once through the page, and the result says so in its warnings. Replay runs never open a page:
 * loading the platform's site would reach the network.
 */
export async function signed<T>(ctx: CrawlContext, endpoint: string, routes: SignedRoutes<T>): Promise<T> {
  const mode = signModeFor(ctx.signModes, ctx.platform, endpoint);
  const page = ctx.replay ? undefined : ctx.signer;
  if (mode === 'browser') {
    if (!page) {
      throw new UpstreamError(
        `${ctx.platform} ${endpoint}: signing mode is browser (CRAWLER_SIGN_MODE) but ${ctx.replay ? 'replay mode opens no page' : 'no browser is available for in-page signing'}`,
      );
    }
    return routes.browser(page);
  }
  try {
    return await routes.native();
  } catch (e) {
    if (mode === 'native' || !(e instanceof SignatureRefused) || !page) throw e;
    ctx.warn(`${ctx.platform} ${endpoint}: the platform refused our native signature (${e.message}); signed in the page by the platform's own code instead`);
    try {
      return await routes.browser(page);
    } catch (again) {
      if (again instanceof CrawlError) throw again;
      throw new Blocked(`${ctx.platform} ${endpoint}: native signature refused and in-page signing failed (${again instanceof Error ? again.message : String(again)})`);
    }
  }
}
