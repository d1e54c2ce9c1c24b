import { Blocked, InvalidInput, RateLimited, SessionExpired } from '../../crawl/errors.js';
import type { CrawlContext, Params, WriteAction, WriteOutcome, WritePlan } from '../types.js';
import { requireCredentials, write } from './api.js';
import { WWW_ORIGIN } from './http.js';
import { type WriteError, arr, obj, str, writeData, writeErrors } from './parse.js';
import { parseSubreddit, parseThingRef, stripPrefix } from './refs.js';
import { resolveShare } from './share.js';

/*
 * Reddit's write verbs: /api/submit, /api/comment, /api/del on oauth.reddit.com with a user's token (an
 * app-only token is tried too: reddit's refusal of it is reported as session_expired).
 * plan() only reads params; run() makes the one POST. Reddit refuses in two ways: HTTP 200 with
 * json.errors [[CODE, message, field]], or (submit validation) HTTP 400 with error_type/explanation.
 */

const TITLE_MAX = 300;
const SELF_TEXT_MAX = 40_000;
const COMMENT_MAX = 10_000;

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

function required(params: Params, name: string, max: number): string {
  const v = text(params[name]);
  if (!v) throw new InvalidInput(`params.${name}: required`);
  if (v.length > max) throw new InvalidInput(`params.${name}: reddit accepts at most ${max} characters`);
  return v;
}

/** Reddit's refusals → outcome: a login problem, a throttle or a bot check are typed; the rest is rejected with reddit's words. */
export function judge(status: number, body: unknown, what: string): { state: 'rejected'; message: string } | undefined {
  const errors = writeErrors(body);
  const codes = errors.map((e) => e.code.toUpperCase());
  if (codes.some((c) => c === 'USER_REQUIRED' || c === 'NOT_LOGGED_IN' || c === 'INVALID_TOKEN')) {
    throw new SessionExpired(`${what}: reddit wants a logged-in user (${describe(errors)})`);
  }
  const limited = errors.find((e) => e.code.toUpperCase() === 'RATELIMIT');
  if (limited) throw new RateLimited(`${what}: reddit says ${limited.message}`, waitOf(limited.message));
  if (codes.some((c) => c.includes('CAPTCHA'))) throw new Blocked(`${what}: reddit wants a captcha solved (${describe(errors)})`);
  if (errors.length) return { state: 'rejected', message: describe(errors) };
  if (status >= 400) return { state: 'rejected', message: `reddit refused the request (HTTP ${status})` };
  return undefined;
}

const describe = (errors: WriteError[]): string => errors.map((e) => `${e.code}: ${e.message}${e.field ? ` (${e.field})` : ''}`).join('; ');

/** "Take a break for 9 minutes before trying again." → 540. */
function waitOf(message: string): number | undefined {
  const m = /(\d+)\s*(second|minute|hour)s?/i.exec(message);
  if (!m) return undefined;
  const unit = m[2].toLowerCase();
  return Number(m[1]) * (unit === 'hour' ? 3600 : unit === 'minute' ? 60 : 1);
}

async function targetOf(ctx: CrawlContext, params: Params): Promise<string> {
  const ref = parseThingRef(params.target);
  if ('fullname' in ref) return ref.fullname;
  const resolved = await resolveShare(ctx, ref.share);
  return `${resolved.kind === 'post' ? 't3' : 't1'}_${resolved.id}`;
}

// ---- post.create ------------------------------------------------------------------------------------

interface Submission {
  sr: string;
  title: string;
  kind: 'self' | 'link';
  text?: string;
  url?: string;
}

function submission(params: Params): Submission {
  const sr = parseSubreddit(params.subreddit);
  const title = required(params, 'title', TITLE_MAX);
  const body = text(params.text);
  if (body.length > SELF_TEXT_MAX) throw new InvalidInput(`params.text: reddit accepts at most ${SELF_TEXT_MAX} characters`);
  const link = text(params.url);
  if (link) {
    let u: URL;
    try {
      u = new URL(link);
    } catch {
      throw new InvalidInput('params.url: not a URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InvalidInput('params.url: only http and https links can be submitted');
  }
  return { sr, title, kind: link ? 'link' : 'self', text: body || undefined, url: link || undefined };
}

export const postCreateAction: WriteAction = {
  shape: 'write',
  summary: 'Submit a reddit post: a self (text) post, or a link post when params.url is given (link posts may carry text too)',
  params: [
    { name: 'subreddit', type: 'string', required: true, description: 'the community to post in (name or r/name)' },
    { name: 'title', type: 'string', required: true, description: `post title (at most ${TITLE_MAX} characters)` },
    { name: 'text', type: 'string', required: false, description: 'body in reddit markdown (self posts; optional on link posts)' },
    { name: 'url', type: 'string', required: false, description: 'the link of a link post; absent for a self post' },
  ],
  async plan(_ctx, params): Promise<WritePlan> {
    const s = submission(params);
    return { summary: `submit a ${s.kind} post "${s.title}" to r/${s.sr}${s.url ? ` linking ${s.url}` : ''}`, target: `r/${s.sr}` };
  },
  async run(ctx, params): Promise<WriteOutcome> {
    const s = submission(params);
    const form: Record<string, string> = { api_type: 'json', kind: s.kind, sr: s.sr, title: s.title, resubmit: 'true', sendreplies: 'true' };
    if (s.url) form.url = s.url;
    if (s.text) form.text = s.text;
    const what = `submit to r/${s.sr}`;
    const { status, body } = await write(ctx, '/api/submit', form, what);
    const refused = judge(status, body, what);
    if (refused) return { ...refused, target: `r/${s.sr}` };
    const data = writeData(body);
    const name = str(data?.name) ?? (str(data?.id) ? `t3_${str(data?.id)}` : undefined);
    return { state: 'published', url: str(data?.url), target: name ?? `r/${s.sr}` };
  },
};

// ---- comment.create ---------------------------------------------------------------------------------

export const commentCreateAction: WriteAction = {
  shape: 'write',
  summary: 'Comment on a reddit post, or reply to a comment',
  params: [
    {
      name: 'target',
      type: 'string',
      required: true,
      description: 'what to answer: post or comment URL, share link, t3_<id> / t1_<id> fullname, or a bare post id',
    },
    { name: 'text', type: 'string', required: true, description: `the comment in reddit markdown (at most ${COMMENT_MAX} characters)` },
  ],
  async plan(_ctx, params): Promise<WritePlan> {
    const ref = parseThingRef(params.target);
    required(params, 'text', COMMENT_MAX);
    const target = 'fullname' in ref ? ref.fullname : ref.share;
    return { summary: `comment on ${target}`, target };
  },
  async run(ctx, params): Promise<WriteOutcome> {
    const body = required(params, 'text', COMMENT_MAX);
    requireCredentials(ctx, 'comment');
    const thing = await targetOf(ctx, params);
    const what = `comment on ${thing}`;
    const res = await write(ctx, '/api/comment', { api_type: 'json', thing_id: thing, text: body }, what);
    const refused = judge(res.status, res.body, what);
    if (refused) return { ...refused, target: thing };
    const created = obj(obj(arr(writeData(res.body)?.things)[0])?.data);
    const id = str(created?.id);
    const permalink = str(created?.permalink);
    const link = str(created?.link_id);
    const url = permalink ? `${WWW_ORIGIN}${permalink}` : id && link ? `${WWW_ORIGIN}/comments/${stripPrefix(link)}/_/${id}/` : undefined;
    return { state: 'published', url, target: thing };
  },
};

// ---- delete -----------------------------------------------------------------------------------------

export const deleteAction: WriteAction = {
  shape: 'write',
  summary: 'Delete one of your reddit posts or comments',
  params: [
    {
      name: 'target',
      type: 'string',
      required: true,
      description: 'post or comment URL, share link, t3_<id> / t1_<id> fullname, or a bare post id',
    },
  ],
  async plan(_ctx, params): Promise<WritePlan> {
    const ref = parseThingRef(params.target);
    const target = 'fullname' in ref ? ref.fullname : ref.share;
    return { summary: `delete ${target}`, target };
  },
  async run(ctx, params): Promise<WriteOutcome> {
    parseThingRef(params.target);
    requireCredentials(ctx, 'delete');
    const thing = await targetOf(ctx, params);
    const what = `delete ${thing}`;
    const res = await write(ctx, '/api/del', { api_type: 'json', id: thing }, what);
    const refused = judge(res.status, res.body, what);
    if (refused) return { ...refused, target: thing };
    // Reddit answers {} whether or not there was anything of yours to delete.
    return { state: 'deleted', target: thing };
  },
};
