import { CrawlError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { deriveKeys, pageScripts, signingChunkIn, signingChunkUrl, TransactionPageError, transactionId, type TransactionKeys } from './transaction.js';

/*
 * The x-client-transaction-id's per-page state (transaction.ts), loaded from x.com once per profile and
 * kept an hour. When it cannot be derived the requests go without the header (X answers most reads
 * without it; a 404 then re-derives it once, as twscrape does); that is said once in the warnings.
 */
export const HOME_URL = 'https://x.com/home';
const TTL_MS = 3600_000;
const RETRY_MS = 10 * 60_000;
/** Bundle chunks read while looking for the one that imports the signing chunk. */
const MAX_SCRIPTS = 8;

type Stored = TransactionKeys | { failed: string };
const keyOf = (ctx: CrawlContext): string => `twitter:xclid:${ctx.profile}`;

async function text(ctx: CrawlContext, url: string, accept: string): Promise<string> {
  const res = await ctx.http.request({ url, headers: { accept } });
  if (res.status >= 400) throw new TransactionPageError(`${url} answered HTTP ${res.status}`);
  return res.text();
}

export async function loadTransactionKeys(ctx: CrawlContext): Promise<TransactionKeys> {
  const html = await text(ctx, HOME_URL, 'text/html');
  let chunk = signingChunkUrl(html);
  if (!chunk) {
    for (const script of pageScripts(html).slice(0, MAX_SCRIPTS)) {
      chunk = signingChunkIn(await text(ctx, script, '*/*'), script);
      if (chunk) break;
    }
  }
  if (!chunk) throw new TransactionPageError('no signing chunk (ondemand.s / sign.o) is named on the page or in its first bundle chunks');
  return deriveKeys(html, await text(ctx, chunk, '*/*'));
}

/** The header for one request, or undefined when the page state is not to be had. */
export async function transactionHeader(ctx: CrawlContext, method: string, path: string, fresh: boolean): Promise<string | undefined> {
  let stored = fresh ? undefined : ctx.memo.get<Stored>(keyOf(ctx));
  if (!stored) {
    try {
      stored = await loadTransactionKeys(ctx);
      ctx.memo.set(keyOf(ctx), stored, TTL_MS);
    } catch (e) {
      if (!(e instanceof TransactionPageError) && !(e instanceof CrawlError) && !isReplayMiss(e)) throw e;
      stored = { failed: (e as Error).message };
      ctx.memo.set(keyOf(ctx), stored, RETRY_MS);
      if (!isReplayMiss(e)) ctx.warn(`could not derive x-client-transaction-id (${(e as Error).message}); requests go without it`);
    }
  }
  return 'failed' in stored ? undefined : transactionId(stored, method, path);
}

export function forgetTransactionKeys(ctx: CrawlContext): void {
  ctx.memo.delete(keyOf(ctx));
}
