import { InvalidInput, NotFound } from '../../crawl/errors.js';
import type { CrawlContext } from '../types.js';
import { ENDPOINTS, query, tiebaJson, type Json } from './api.js';
import { panelName } from './parse-json.js';
import type { UserRef } from './refs.js';

const NAME_TTL_MS = 24 * 3600_000;

/** /home/get/panel for a portrait (id=) or a user name (un=). */
export async function panel(ctx: CrawlContext, ref: UserRef): Promise<Json> {
  const pairs: Array<[string, string]> = 'portrait' in ref ? [['id', ref.portrait]] : [['un', ref.name]];
  return tiebaJson(ctx, `${ENDPOINTS.userPanel}?${query([...pairs, ['ie', 'utf-8']])}`, `user ${'portrait' in ref ? ref.portrait : ref.name}`);
}

/** The user name behind a portrait (remembered a day); users without one cannot be listed by name. */
export async function userName(ctx: CrawlContext, portrait: string): Promise<string> {
  const key = `tieba:un:${portrait}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  const json = await panel(ctx, { portrait });
  if (!json.data) throw new NotFound(`tieba has no user ${portrait}`);
  const name = panelName(json);
  if (!name) throw new InvalidInput(`tieba user ${portrait} has no user name, and tieba lists a user's threads (/home/get/getthread) by name only`);
  ctx.memo.set(key, name, NAME_TTL_MS);
  return name;
}
