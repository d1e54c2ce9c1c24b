import { ParseError, isReplayMiss } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { IDENTITY_HOSTS, NSID, isFallbackable, publicGet } from './api.js';
import { isDid, type Actor } from './refs.js';

/** A handle's DID changes only when its owner moves it; a day keeps walks from asking every page. */
const DID_TTL_MS = 24 * 3600_000;
const memoKey = (handle: string): string => `bluesky:did-of:${handle}`;

export const knownDid = (ctx: CrawlContext, actor: Actor): string | undefined => ('did' in actor ? actor.did : ctx.memo.get<string>(memoKey(actor.handle)));

/** handle → DID through com.atproto.identity.resolveHandle; a DID is returned as is. */
export async function resolveDid(ctx: CrawlContext, actor: Actor): Promise<string> {
  const known = knownDid(ctx, actor);
  if (known) return known;
  const handle = (actor as { handle: string }).handle;
  const body = await publicGet(ctx, NSID.resolveHandle, { handle }, IDENTITY_HOSTS);
  const did = typeof body.did === 'string' ? body.did : '';
  if (!isDid(did)) throw new ParseError(`resolveHandle for ${handle} answered no DID`);
  ctx.memo.set(memoKey(handle), did, DID_TTL_MS);
  return did;
}

/**
 * Asks with the actor as the caller gave it (the AppView takes handles), and only when that cannot be
 * answered non-terminally (another recording, another host) resolves the handle and asks with the DID.
 * A DID remembered from an earlier crawl only saves the resolve step: the first ask is always the
 * caller's own form, so what one task learnt never changes what the next one sends.
 */
export async function withActor<T>(ctx: CrawlContext, actor: Actor, ask: (actorParam: string) => Promise<T>): Promise<T> {
  if ('did' in actor) return ask(actor.did);
  const handle = actor.handle;
  try {
    return await ask(handle);
  } catch (first) {
    if (!isFallbackable(first)) throw first;
    let resolved: string;
    try {
      resolved = await resolveDid(ctx, actor);
    } catch (e) {
      if (isFallbackable(e)) throw first;
      throw e;
    }
    try {
      return await ask(resolved);
    } catch (e) {
      if (isReplayMiss(e) && isReplayMiss(first)) throw first;
      throw e;
    }
  }
}
