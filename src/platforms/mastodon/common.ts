import type { CatalogParam } from '../../domain/catalog.js';
import { InvalidInput, ParseError } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import type { CrawlContext, Params } from '../types.js';
import { ENDPOINTS, getJson, nextParam } from './api.js';
import { DEFAULT_INSTANCE, type Instance } from './instance.js';
import { obj, str } from './parse.js';

export const INSTANCE_PARAM: CatalogParam = {
  name: 'instance',
  type: 'string',
  required: false,
  default: DEFAULT_INSTANCE,
  description:
    "the Mastodon server to ask, a plain hostname (e.g. fosstodon.org); a URL or @user@server reference names its own server; with a profile bound to a server, the default means the profile's server; in replay mode any host[:port] a recording holds (e.g. localhost:3000)",
};

export const queryParam = (description: string): CatalogParam => ({ name: 'query', type: 'string', required: true, description });

/** How many items one page should ask for: the caller's want, capped by the endpoint's maximum. */
export function pageSize(params: Params, max: number): number {
  const walk = params.max_items as number | undefined;
  const want = walk === -1 ? max : typeof walk === 'number' ? walk : typeof params.limit === 'number' ? params.limit : max;
  return Math.max(1, Math.min(max, Math.floor(want)));
}

/**
 * Where a max_id-paged list continues: the Link header's next page. Without any Link header (some proxies drop
 * it), a full page continues below its last id; a Link header without `next` is Mastodon saying "no more".
 */
export function nextMaxId(res: HttpResponse, list: unknown[], limit: number): string | undefined {
  if (list.length === 0) return undefined;
  if (res.headers['link'] !== undefined) return nextParam(res, 'max_id');
  return list.length >= limit ? str(obj(list[list.length - 1])?.id) : undefined;
}

export function expectArray(data: unknown, what: string): unknown[] {
  if (!Array.isArray(data)) throw new ParseError(`${what}: expected a JSON array`);
  return data;
}

const ACCOUNT_ID_TTL_MS = 6 * 3600_000;

/** acct → account id on one server; remembered because every posts page needs it. */
export async function resolveAccountId(ctx: CrawlContext, inst: Instance, acct: string): Promise<string> {
  const key = `acct:${inst.origin}|${acct.toLowerCase()}`;
  const known = ctx.memo.get<string>(key);
  if (known) return known;
  const { data } = await getJson(ctx, inst, ENDPOINTS.lookup, { acct }, `account lookup @${acct}`);
  const id = str(obj(data)?.id);
  if (!id) throw new ParseError(`account lookup @${acct}: no id in ${inst.host}'s answer`);
  ctx.memo.set(key, id, ACCOUNT_ID_TTL_MS);
  return id;
}

export function rememberAccountId(ctx: CrawlContext, inst: Instance, acct: string | undefined, id: string): void {
  if (acct) ctx.memo.set(`acct:${inst.origin}|${acct.toLowerCase()}`, id, ACCOUNT_ID_TTL_MS);
}

/** Offset-paged endpoints (search, trends) carry a plain offset as their native cursor. */
export function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new InvalidInput('params.cursor: not a cursor of this action');
  return Number(cursor);
}
