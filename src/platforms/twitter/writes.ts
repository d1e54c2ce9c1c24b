import { InvalidInput, ParseError, RateLimited, SessionExpired } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import type { CatalogParam } from '../../domain/catalog.js';
import type { CrawlContext, Params, WriteAction, WriteOutcome, WritePlan } from '../types.js';
import { oauth1Header, type OAuth1Keys } from './oauth.js';
import { arr, obj, str, type Json } from './parse.js';
import { isTweetId, parseTweetRef, tweetUrl } from './refs.js';

/*
 * Writes go through X's official API v2 (POST /2/tweets, DELETE /2/tweets/:id), not the web client: it is
 * the documented way for an app to post for a user, and the recorded answers are its (tweepy's cassette:
 * 201 {data:{id,text}}, 200 {data:{deleted:true}}). The profile stores the app's keys and the user's access
 * token (OAuth 1.0a user context) or a user-context OAuth 2.0 token with tweet.write; X's access tiers
 * decide how many posts an app may write. Plans never touch the network; a run is one request.
 */
export const API_V2 = 'https://api.x.com/2/tweets';
/** Premium accounts post up to 25,000 characters; X refuses what the account may not (rejected, with its words). */
const MAX_TEXT = 25_000;
const ADD_KEYS = "npx crawler profiles add twitter <name> --credential consumer_key=… --credential consumer_secret=… --credential access_token=… --credential access_token_secret=… (or --credential oauth2_user_token=…)";

type Auth = { oauth1: OAuth1Keys } | { bearer: string };

function authOf(ctx: CrawlContext): Auth | undefined {
  const c = ctx.session.credentials ?? {};
  if (c.consumer_key && c.consumer_secret && c.access_token && c.access_token_secret) {
    return { oauth1: { consumerKey: c.consumer_key, consumerSecret: c.consumer_secret, token: c.access_token, tokenSecret: c.access_token_secret } };
  }
  if (c.oauth2_user_token) return { bearer: c.oauth2_user_token };
  return undefined;
}

function requireAuth(ctx: CrawlContext, what: string): Auth {
  const auth = authOf(ctx);
  if (!auth) throw new SessionExpired(`twitter ${what} writes through X's API v2 and profile "${ctx.profile}" holds no API credentials: add them with ${ADD_KEYS.replace('<name>', ctx.profile)}`);
  return auth;
}

const asWho = (ctx: CrawlContext): string => (authOf(ctx) ? `profile "${ctx.profile}"` : `profile "${ctx.profile}" (it has no X API credentials yet: the run would answer session_expired)`);

function checkText(v: unknown): string {
  const text = typeof v === 'string' ? v : '';
  if (!text.trim()) throw new InvalidInput('params.text: the post text is empty');
  if ([...text].length > MAX_TEXT) throw new InvalidInput(`params.text: X posts hold at most ${MAX_TEXT} characters (280 without Premium)`);
  return text;
}

function targetId(v: unknown): string {
  const ref = parseTweetRef(typeof v === 'string' ? v : undefined);
  if (!('id' in ref)) throw new InvalidInput('params.target: give the post id or its x.com link (t.co links are not followed for writes)');
  return ref.id;
}

/** API v2 problems: {title, detail, type} or {errors: [{message}]}. */
function problem(body: Json | undefined, status: number): string {
  const parts = [str(body?.title), str(body?.detail), ...arr(body?.errors).map((e) => str(obj(e)?.message) ?? str(obj(e)?.detail))].filter(Boolean);
  return parts.length ? parts.join(': ') : `HTTP ${status}`;
}

/** X refused the write with a reason of its own (validation, duplicate, tier, not the author). */
class Refused extends Error {}

function judge(res: HttpResponse, what: string): Json {
  let body: Json | undefined;
  try {
    body = obj(JSON.parse(res.text()));
  } catch {
    body = undefined;
  }
  if (res.status === 401) throw new SessionExpired(`${what}: X refused the API credentials (${problem(body, res.status)}); store fresh keys`);
  if (res.status === 429) {
    const reset = Number(res.headers['x-rate-limit-reset']);
    const left = Number.isFinite(reset) ? Math.max(1, Math.ceil(reset - Date.now() / 1000)) : undefined;
    throw new RateLimited(`${what}: X's write limit is spent (${problem(body, res.status)})`, left);
  }
  if (res.status >= 400 || !body) throw new Refused(problem(body, res.status));
  return body;
}

async function send(ctx: CrawlContext, auth: Auth, method: 'POST' | 'DELETE', url: string, json?: unknown): Promise<HttpResponse> {
  const authorization = 'oauth1' in auth ? oauth1Header(auth.oauth1, method, url) : `Bearer ${auth.bearer}`;
  return ctx.http.request({ method, url, headers: { authorization }, ...(json !== undefined ? { json } : {}) });
}

async function create(ctx: CrawlContext, what: string, payload: Json, target?: string): Promise<WriteOutcome> {
  const auth = requireAuth(ctx, what);
  try {
    const body = judge(await send(ctx, auth, 'POST', API_V2, payload), what);
    const id = str(obj(body.data)?.id);
    if (!id || !isTweetId(id)) throw new ParseError(`${what}: X answered without the new post's id`);
    return { state: 'published', url: tweetUrl(id), ...(target ? { target } : {}) };
  } catch (e) {
    if (e instanceof Refused) return { state: 'rejected', message: `X refused the post: ${e.message}`, ...(target ? { target } : {}) };
    throw e;
  }
}

const TEXT: CatalogParam = { name: 'text', type: 'string', required: true, description: 'the post text (280 characters, more with Premium)' };
const TARGET = 'the post id or its x.com /status/<id> link';

export const postCreateAction: WriteAction = {
  shape: 'write',
  summary: "Publish a post as the profile's X account through the official API v2 (app keys + the user's access token)",
  params: [TEXT],
  async plan(ctx: CrawlContext, params: Params): Promise<WritePlan> {
    const text = checkText(params.text);
    return { summary: `post ${JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}…` : text)} on X as ${asWho(ctx)}` };
  },
  run: (ctx, params) => create(ctx, 'post.create', { text: checkText(params.text) }),
};

export const commentCreateAction: WriteAction = {
  shape: 'write',
  summary: "Reply to an X post as the profile's account through the official API v2",
  params: [{ name: 'target', type: 'string', required: true, description: `the post to answer: ${TARGET}` }, TEXT],
  async plan(ctx: CrawlContext, params: Params): Promise<WritePlan> {
    const id = targetId(params.target);
    checkText(params.text);
    return { summary: `reply to ${tweetUrl(id)} as ${asWho(ctx)}`, target: tweetUrl(id) };
  },
  run: (ctx, params) => {
    const id = targetId(params.target);
    return create(ctx, 'comment.create', { text: checkText(params.text), reply: { in_reply_to_tweet_id: id } }, tweetUrl(id));
  },
};

export const deleteAction: WriteAction = {
  shape: 'write',
  summary: "Delete one of the profile account's own X posts through the official API v2",
  params: [{ name: 'target', type: 'string', required: true, description: `the post to delete (the profile's own): ${TARGET}` }],
  async plan(ctx: CrawlContext, params: Params): Promise<WritePlan> {
    const id = targetId(params.target);
    return { summary: `delete ${tweetUrl(id)} (only a post of ${asWho(ctx)} can be deleted)`, target: tweetUrl(id) };
  },
  async run(ctx: CrawlContext, params: Params): Promise<WriteOutcome> {
    const id = targetId(params.target);
    const target = tweetUrl(id);
    const auth = requireAuth(ctx, 'delete');
    try {
      const body = judge(await send(ctx, auth, 'DELETE', `${API_V2}/${id}`), 'delete');
      // X answers deleted:false for a post that is not the user's (or is already gone): nothing was deleted.
      if (obj(body.data)?.deleted === true) return { state: 'deleted', target };
      return { state: 'rejected', target, message: `X did not delete ${target} (deleted: false): it is not a post of this account, or it is gone` };
    } catch (e) {
      if (e instanceof Refused) return { state: 'rejected', target, message: `X refused the delete: ${e.message}` };
      throw e;
    }
  },
};

