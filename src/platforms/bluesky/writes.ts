import { InvalidInput, ParseError } from '../../crawl/errors.js';
import type { CatalogParam } from '../../domain/catalog.js';
import type { CrawlContext, Params, WriteAction, WriteOutcome, WritePlan } from '../types.js';
import { NSID } from './api.js';
import { authedXrpc, credentialsOf, getSession, type Session } from './auth.js';
import { resolveDid } from './identity.js';
import { obj, str } from './parse.js';
import { POST_COLLECTION, actorString, goodHandle, parseAtUri, parsePostRef, postAtUri, postUrl, type PostRef } from './refs.js';
import { postThread } from './thread.js';

/*
 * Writes go to the profile's PDS as records: a post is an app.bsky.feed.post created with
 * com.atproto.repo.createRecord (a reply carries strong refs {uri, cid} to its thread's root and to its
 * parent), and deleting one is com.atproto.repo.deleteRecord by record key. Plans never touch the network.
 */

/** app.bsky.feed.post limits: 300 graphemes and 3000 bytes of text. */
export const MAX_GRAPHEMES = 300;
export const MAX_BYTES = 3000;

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
export const graphemeCount = (s: string): number => [...graphemes.segment(s)].length;

export function checkText(v: unknown): string {
  const text = typeof v === 'string' ? v : '';
  if (!text.trim()) throw new InvalidInput('params.text: the post text is empty');
  const n = graphemeCount(text);
  if (n > MAX_GRAPHEMES) throw new InvalidInput(`params.text: Bluesky posts hold at most ${MAX_GRAPHEMES} characters; this one has ${n}`);
  if (Buffer.byteLength(text, 'utf8') > MAX_BYTES) throw new InvalidInput(`params.text: Bluesky posts hold at most ${MAX_BYTES} bytes of UTF-8`);
  return text;
}

const TEXT: CatalogParam = { name: 'text', type: 'string', required: true, description: `the post text (plain text, at most ${MAX_GRAPHEMES} characters)` };
const POST_QUERY = 'https://bsky.app/profile/<handle>/post/<rkey>, at://<did>/app.bsky.feed.post/<rkey>, or an item id <did>/<rkey>';

function asWho(ctx: CrawlContext): string {
  const cred = credentialsOf(ctx);
  return cred ? `@${cred.identifier}` : `profile "${ctx.profile}" (it has no bluesky credentials yet: the run would answer session_expired)`;
}

const quoted = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}…` : text);
const refUrl = (ref: PostRef): string => postUrl(actorString(ref.actor), ref.rkey);

function published(session: Session, body: Record<string, unknown>, target?: string): WriteOutcome {
  const at = typeof body.uri === 'string' ? parseAtUri(body.uri) : undefined;
  if (!at?.rkey) throw new ParseError('createRecord: the answer has no at:// URI');
  return { state: 'published', url: postUrl(goodHandle(session.handle) ?? session.did, at.rkey), ...(target ? { target } : {}) };
}

function newPost(text: string, reply?: { root: StrongRef; parent: StrongRef }): Record<string, unknown> {
  return { $type: POST_COLLECTION, text, createdAt: new Date().toISOString(), ...(reply ? { reply } : {}) };
}

async function createPost(ctx: CrawlContext, what: string, record: Record<string, unknown>): Promise<{ body: Record<string, unknown>; session: Session }> {
  return authedXrpc(ctx, (s) => ({ method: 'POST', nsid: NSID.createRecord, json: { repo: s.did, collection: POST_COLLECTION, record } }), { what, renew: false });
}

export const postCreateAction: WriteAction = {
  shape: 'write',
  summary: "Publish a text post as the profile's account (app password login)",
  params: [TEXT],
  async plan(ctx: CrawlContext, params: Params): Promise<WritePlan> {
    const text = checkText(params.text);
    return { summary: `post ${quoted(text)} on Bluesky as ${asWho(ctx)}` };
  },
  async run(ctx: CrawlContext, params: Params): Promise<WriteOutcome> {
    const text = checkText(params.text);
    const { body, session } = await createPost(ctx, 'post.create', newPost(text));
    return published(session, body);
  },
};

interface StrongRef {
  uri: string;
  cid: string;
}

function strongRef(v: unknown): StrongRef | undefined {
  const o = obj(v);
  const uri = str(o?.uri);
  const cid = str(o?.cid);
  return uri && cid ? { uri, cid } : undefined;
}

export const commentCreateAction: WriteAction = {
  shape: 'write',
  summary: "Reply to a Bluesky post (or to a reply) as the profile's account",
  params: [{ name: 'target', type: 'string', required: true, description: `the post to answer: ${POST_QUERY}` }, TEXT],
  async plan(ctx: CrawlContext, params: Params): Promise<WritePlan> {
    const ref = parsePostRef(params.target as string | undefined);
    const text = checkText(params.text);
    return { summary: `reply ${quoted(text)} to ${refUrl(ref)} as ${asWho(ctx)}`, target: refUrl(ref) };
  },
  async run(ctx: CrawlContext, params: Params): Promise<WriteOutcome> {
    const ref = parsePostRef(params.target as string | undefined);
    const text = checkText(params.text);
    // Log in before reading the thread: without credentials there is nothing to read it for.
    await getSession(ctx, 'comment.create');
    const { uri, thread } = await postThread(ctx, ref, 0);
    const post = obj(thread.post);
    const parent = strongRef({ uri: str(post?.uri) ?? uri, cid: post?.cid });
    if (!parent) throw new ParseError('getPostThread: the post to answer has no cid');
    // A reply to a reply keeps the thread's root; a reply to a top post roots at that post.
    const root = strongRef(obj(obj(post?.record)?.reply)?.root) ?? parent;
    const { body, session } = await createPost(ctx, 'comment.create', newPost(text, { root, parent }));
    return published(session, body, parent.uri);
  },
};

export const deleteAction: WriteAction = {
  shape: 'write',
  summary: "Delete one of the profile account's own posts or replies",
  params: [{ name: 'target', type: 'string', required: true, description: `the post to delete (the profile's own): ${POST_QUERY}` }],
  async plan(ctx: CrawlContext, params: Params): Promise<WritePlan> {
    const ref = parsePostRef(params.target as string | undefined);
    return { summary: `delete ${refUrl(ref)} (only a post of ${asWho(ctx)} can be deleted)`, target: refUrl(ref) };
  },
  async run(ctx: CrawlContext, params: Params): Promise<WriteOutcome> {
    const ref = parsePostRef(params.target as string | undefined);
    const session = await getSession(ctx, 'delete');
    const own = 'did' in ref.actor ? ref.actor.did === session.did : ref.actor.handle === session.handle.toLowerCase();
    const did = own ? session.did : await resolveDid(ctx, ref.actor);
    const target = postAtUri(did, ref.rkey);
    if (did !== session.did) {
      return { state: 'rejected', target, message: `${refUrl(ref)} belongs to ${actorString(ref.actor)}, not to @${session.handle}: only the profile's own posts can be deleted` };
    }
    // deleteRecord answers success for a record that is not there; ask first so "deleted" is never claimed for nothing.
    await authedXrpc(ctx, (s) => ({ nsid: NSID.getRecord, query: { repo: s.did, collection: POST_COLLECTION, rkey: ref.rkey } }), { what: 'delete', renew: true });
    await authedXrpc(ctx, (s) => ({ method: 'POST', nsid: NSID.deleteRecord, json: { repo: s.did, collection: POST_COLLECTION, rkey: ref.rkey } }), {
      what: 'delete',
      renew: false,
    });
    return { state: 'deleted', target };
  },
};
