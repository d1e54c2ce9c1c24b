import type { CatalogParam } from '../../domain/catalog.js';
import { InvalidInput, NotFound } from '../../crawl/errors.js';
import type { HttpResponse } from '../../crawl/http.js';
import type { CrawlContext, Params, WriteAction, WriteOutcome } from '../types.js';
import { ENDPOINTS, call, classify, getJson } from './api.js';
import { INSTANCE_PARAM } from './common.js';
import { DEFAULT_INSTANCE, accessToken, homeInstance, normalizeHost, writeInstance, type Instance } from './instance.js';
import { arr, obj, str } from './parse.js';
import { parseStatusRef, type StatusRef } from './refs.js';

const TEXT: CatalogParam = {
  name: 'text',
  type: 'string',
  required: true,
  description: 'the post text, sent as is (the server links URLs, #tags and @mentions; its character limit applies)',
};
const VISIBILITY: CatalogParam = {
  name: 'visibility',
  type: 'string',
  required: false,
  enum: ['public', 'unlisted', 'private', 'direct'],
  description: "who may see it; the account's default when absent",
};
const TARGET: CatalogParam = {
  name: 'target',
  type: 'string',
  required: true,
  description: 'the post: https://server/@user/<id>, server/<id>, mastodon:server/<id> or a status id on the profile\'s server',
};

function requireText(params: Params): string {
  const text = typeof params.text === 'string' ? params.text : '';
  if (!text.trim()) throw new InvalidInput('params.text: must not be empty');
  return text;
}

/** The server a write would go to, known without a request; also rejects a params.instance the token cannot write to. */
function planServer(ctx: CrawlContext, params: Params): { host: string; note: string } {
  const requested = params.instance === undefined || params.instance === '' ? DEFAULT_INSTANCE : normalizeHost(String(params.instance), undefined, ctx.replay);
  const home = homeInstance(ctx.session.credentials);
  if (home && requested !== DEFAULT_INSTANCE && requested !== home.host) {
    throw new InvalidInput(`params.instance: writes go to the profile's own server (${home.host}), not ${requested}`);
  }
  const note = accessToken(ctx) ? '' : ' (no access_token is stored for this profile: running it will answer session_expired)';
  return { host: home?.host ?? requested, note };
}

function statusTarget(ref: StatusRef, host: string): string {
  return ref.url ?? `${ref.host ?? host}/${ref.id}`;
}

/** Only a 2xx is a done write; a 422 (and a plain 403) is the server refusing it, with its own words. */
function outcome(res: HttpResponse, inst: Instance, what: string, done: 'published' | 'deleted', fallbackTarget?: string): WriteOutcome {
  const verdict = classify(res, what, 'write', true);
  if (verdict.kind === 'rejected') return { state: 'rejected', message: verdict.message, target: fallbackTarget };
  let status: Record<string, unknown> | undefined;
  try {
    status = obj(JSON.parse(res.text()));
  } catch {
    status = undefined;
  }
  const id = str(status?.id);
  return {
    state: done,
    url: str(status?.url) ?? str(status?.uri),
    target: done === 'published' && id ? `${inst.host}/${id}` : fallbackTarget,
  };
}

function idempotencyHeaders(params: Params): Record<string, string> {
  const key = typeof params.idempotency_key === 'string' ? params.idempotency_key.trim() : '';
  // Mastodon remembers this key for an hour and answers a repeat with the first post instead of a second one.
  return key ? { 'Idempotency-Key': key } : {};
}

function statusForm(text: string, params: Params, inReplyTo?: string): Record<string, string> {
  const form: Record<string, string> = { status: text };
  if (inReplyTo) form.in_reply_to_id = inReplyTo;
  if (typeof params.visibility === 'string' && params.visibility) form.visibility = params.visibility;
  return form;
}

/** The id of a post as the profile's server knows it: another server's post is fetched into it by its URL. */
async function localStatusId(ctx: CrawlContext, inst: Instance, ref: StatusRef): Promise<string> {
  if (!ref.host || ref.host === inst.host) return ref.id;
  if (!ref.url) throw new InvalidInput(`${ref.host}/${ref.id} is on another server: give the post's URL so ${inst.host} can fetch it`);
  const { data } = await getJson(ctx, inst, ENDPOINTS.search, { q: ref.url, type: 'statuses', resolve: 'true', limit: 1 }, 'resolve the post to reply to');
  const id = str(obj(arr(obj(data)?.statuses)[0])?.id);
  if (!id) throw new NotFound(`${inst.host} could not fetch ${ref.url} (gone, private, or its server refuses)`);
  return id;
}

export const postCreateAction: WriteAction = {
  shape: 'write',
  summary: "publish a post from the profile's account",
  params: [TEXT, VISIBILITY, INSTANCE_PARAM],
  async plan(ctx, params) {
    const text = requireText(params);
    const { host, note } = planServer(ctx, params);
    const vis = typeof params.visibility === 'string' ? params.visibility : 'default-visibility';
    return { summary: `post a ${vis} status of ${[...text].length} characters on ${host} as profile ${ctx.profile}${note}` };
  },
  async run(ctx, params) {
    const text = requireText(params);
    const inst = writeInstance(ctx, params);
    const res = await call(ctx, inst, { method: 'POST', path: ENDPOINTS.statuses, form: statusForm(text, params), headers: idempotencyHeaders(params) });
    return outcome(res, inst, 'post a status', 'published');
  },
};

export const commentCreateAction: WriteAction = {
  shape: 'write',
  summary: "reply to a post from the profile's account (the text is sent as is: add @mentions yourself)",
  params: [TARGET, TEXT, VISIBILITY, INSTANCE_PARAM],
  async plan(ctx, params) {
    const ref = parseStatusRef(params.target);
    const text = requireText(params);
    const { host, note } = planServer(ctx, params);
    const target = statusTarget(ref, host);
    return { summary: `reply (${[...text].length} characters) to ${target} from ${host} as profile ${ctx.profile}${note}`, target };
  },
  async run(ctx, params) {
    const ref = parseStatusRef(params.target);
    const text = requireText(params);
    const inst = writeInstance(ctx, params);
    const inReplyTo = await localStatusId(ctx, inst, ref);
    const res = await call(ctx, inst, {
      method: 'POST',
      path: ENDPOINTS.statuses,
      form: statusForm(text, params, inReplyTo),
      headers: idempotencyHeaders(params),
    });
    return outcome(res, inst, `reply to status ${inReplyTo}`, 'published');
  },
};

export const deleteAction: WriteAction = {
  shape: 'write',
  summary: "delete one of the profile's own posts",
  params: [TARGET, INSTANCE_PARAM],
  async plan(ctx, params) {
    const ref = parseStatusRef(params.target);
    const { host, note } = planServer(ctx, params);
    if (ref.host && ref.host !== host) throw new InvalidInput(`params.target: ${ref.host} is not the profile's server (${host}); only its own posts can be deleted`);
    const target = statusTarget(ref, host);
    return { summary: `delete ${target} on ${host} as profile ${ctx.profile}${note}`, target };
  },
  async run(ctx, params) {
    const ref = parseStatusRef(params.target);
    const inst = writeInstance(ctx, params);
    if (ref.host && ref.host !== inst.host) throw new InvalidInput(`params.target: ${ref.host} is not the profile's server (${inst.host}); only its own posts can be deleted`);
    const res = await call(ctx, inst, { method: 'DELETE', path: ENDPOINTS.status(ref.id) });
    return outcome(res, inst, `delete status ${ref.id}`, 'deleted', statusTarget(ref, inst.host));
  },
};
