import { obj, objs, str, threadPosts, type Json, type ThreadsPost } from './parse.js';

/*
 * The envelopes around the post and user records, per surface and generation:
 *   post page   2026 web  data.data.edges[] ({node: {thread_items}}; the focal thread, then reply threads) + page_info
 *               2023 web  data.data.containing_thread + data.data.reply_threads[]
 *               app       containing_thread + reply_threads[] + paging_tokens.downwards
 *   profile     2026 web  data.mediaData.edges[] + page_info
 *               2023 web  data.mediaData.threads[]
 *               app       threads[] (2023) or items[] + next_max_id / paging_tokens.downwards
 *   user        2026 web  data.user; 2023 web data.userData.user; app user
 */

export interface PostPage {
  /** The focal post's own thread (its author's chain), oldest first. */
  focal: ThreadsPost[];
  /** Reply threads: each one a reply and the replies chained under it. */
  replies: ThreadsPost[][];
  next?: string;
}

const hasPk = (thread: ThreadsPost[], pk: string): boolean => thread.some((p) => p.pk === pk);

function relayNext(pageInfo: unknown): string | undefined {
  const pi = obj(pageInfo);
  return pi?.has_next_page === true ? str(pi.end_cursor) : undefined;
}

/** A private API page's next token; has_more / more_available false end it even when one is echoed. */
export function appNext(json: Json): string | undefined {
  if (json.has_more === false || json.more_available === false) return undefined;
  const down = str(obj(json.paging_tokens)?.downwards);
  if (down) return down;
  for (const k of ['next_max_id', 'page_token', 'next_page_token', 'paging_token']) {
    const v = str(json[k]);
    if (v) return v;
  }
  return undefined;
}

/** The post page of `pk`; undefined when the answer holds no such page (the post is gone). */
export function postPageOf(json: Json, pk: string, firstPage: boolean): PostPage | undefined {
  const data = obj(obj(json.data)?.data);
  if (data && Array.isArray(data.edges)) {
    const threads = objs(data.edges).map(threadPosts).filter((t) => t.length);
    let at = threads.findIndex((t) => hasPk(t, pk));
    // The site puts the focal thread first; later pages hold replies only.
    if (at < 0 && firstPage && threads.length) at = 0;
    if (at < 0 && firstPage) return undefined;
    return { focal: at >= 0 ? threads[at]! : [], replies: threads.filter((_, i) => i !== at), next: relayNext(data.page_info) };
  }
  const holder = data ?? json;
  const containing = obj(holder.containing_thread);
  if (!containing && !Array.isArray(holder.reply_threads)) return undefined;
  const focal = containing ? threadPosts(containing) : [];
  if (firstPage && !focal.length) return undefined;
  return {
    focal,
    replies: objs(holder.reply_threads).map(threadPosts).filter((t) => t.length),
    next: data ? undefined : appNext(holder),
  };
}

export interface FeedPage {
  rows: ThreadsPost[][];
  next?: string;
}

/** A profile's threads; undefined when the answer is none of the known envelopes. */
export function profileFeedOf(json: Json): FeedPage | undefined {
  const media = obj(obj(json.data)?.mediaData);
  if (media && Array.isArray(media.edges)) return { rows: objs(media.edges).map(threadPosts), next: relayNext(media.page_info) };
  if (media && Array.isArray(media.threads)) return { rows: objs(media.threads).map(threadPosts) };
  for (const key of ['threads', 'items']) {
    if (Array.isArray(json[key])) return { rows: objs(json[key]).map(threadPosts), next: appNext(json) };
  }
  return undefined;
}

/** Search rows: items, media, results or threads, each a thread or a bare post. */
export function searchRowsOf(json: Json): FeedPage | undefined {
  for (const key of ['items', 'media', 'results', 'threads']) {
    if (Array.isArray(json[key])) return { rows: objs(json[key]).map(threadPosts), next: appNext(json) };
  }
  return undefined;
}

/** The user record of a profile answer; null when the answer says there is none. */
export function userRecordOf(json: Json): Json | null | undefined {
  const data = obj(json.data);
  if (data) {
    if ('user' in data) return obj(data.user) ?? null;
    const userData = obj(data.userData);
    if (userData) return obj(userData.user) ?? null;
    return undefined;
  }
  if ('user' in json) return obj(json.user) ?? null;
  return undefined;
}
