import { InvalidInput, SessionExpired, UpstreamError } from '../../crawl/errors.js';
import type { CrawlContext, Params, WriteAction, WriteOutcome, WritePlan } from '../types.js';
import { ENDPOINTS, igHeaders } from './api.js';
import { cookieValue, loggedIn, loginNeeded, readJson } from './outcomes.js';
import { idOf, str } from './parse.js';
import { commentUrl, parsePostRef, postUrl, resolvePost } from './refs.js';

/*
 * comment.create: the web client's POST /api/v1/web/comments/<media pk>/add/ with comment_text (and
 * replied_to_comment_id for a reply), X-CSRFToken and the session cookies; it answers
 * {id, from, text, created_time, status: "ok"} (fixtures/instagram/write-comment-add.har, recorded at the
 * older /web/comments/<pk>/add/ path with the same answer). One attempt, never retried.
 */
export const COMMENT_MAX = 2200;

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

function commentText(params: Params): string {
  const t = text(params.text);
  if (!t) throw new InvalidInput('params.text: required');
  if ([...t].length > COMMENT_MAX) throw new InvalidInput(`params.text: Instagram accepts at most ${COMMENT_MAX} characters`);
  return t;
}

function replyTo(params: Params): string | undefined {
  const r = text(params.reply_to);
  if (r && !/^\d{1,20}$/.test(r)) throw new InvalidInput('params.reply_to: a numeric instagram comment id is expected');
  return r || undefined;
}

/** The web's extra CSRF field: "2" and the sum of the csrftoken's character codes. */
export const jazoest = (csrf: string): string => `2${[...csrf].reduce((n, c) => n + c.charCodeAt(0), 0)}`;

export const commentCreateAction: WriteAction = {
  shape: 'write',
  summary: 'Comment on an Instagram post, or reply to one of its comments (needs a login)',
  params: [
    { name: 'target', type: 'string', required: true, description: 'the post: shortcode, numeric media id, or a post link' },
    { name: 'text', type: 'string', required: true, description: `the comment (at most ${COMMENT_MAX} characters)` },
    { name: 'reply_to', type: 'string', required: false, description: "a comment's numeric id on that post: post a reply to it" },
  ],
  async plan(_ctx, params): Promise<WritePlan> {
    const ref = parsePostRef(params.target);
    commentText(params);
    const reply = replyTo(params);
    const target = 'share' in ref ? ref.share : postUrl(ref.shortcode);
    return { summary: `${reply ? `reply to comment ${reply} on` : 'comment on'} ${target}`, target };
  },
  async run(ctx: CrawlContext, params): Promise<WriteOutcome> {
    const body = commentText(params);
    const reply = replyTo(params);
    if (!loggedIn(ctx)) throw loginNeeded(ctx, 'commenting');
    const csrf = cookieValue(ctx.session.cookies, 'csrftoken');
    if (!csrf) throw new SessionExpired(`commenting: the login of profile "${ctx.profile}" has no csrftoken cookie; store the sessionid and csrftoken cookies together`);
    const key = await resolvePost(ctx, params.target);
    const target = postUrl(key.shortcode);
    const what = `comment on ${key.shortcode}`;
    const res = await ctx.http.request({
      method: 'POST',
      url: ENDPOINTS.commentAdd(key.pk),
      followRedirects: false,
      headers: { ...igHeaders(ctx, target, csrf), origin: 'https://www.instagram.com' },
      form: { comment_text: body, ...(reply ? { replied_to_comment_id: reply } : {}), jazoest: jazoest(csrf) },
    });
    let json;
    try {
      json = readJson(res, ctx, what);
    } catch (e) {
      // A refusal that is not a login, throttle or block (comments off, text refused): Instagram's words.
      if (e instanceof UpstreamError && res.status < 500) return { state: 'rejected', message: e.message, target };
      throw e;
    }
    const id = idOf(json.id, json.pk);
    if (json.status !== 'ok' || !id) return { state: 'rejected', message: `${what}: Instagram answered without a comment id (${str(json.message) ?? `status ${String(json.status)}`})`, target };
    return { state: 'published', url: commentUrl(key.shortcode, id), target };
  },
};
