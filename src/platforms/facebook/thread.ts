import { load } from '../../crawl/cheerio.js';
import type { Comment } from '../../domain/results.js';
import { countIn, isoSeconds, ldJson, ldType, liveData, num, obj, str } from './markup.js';
import { attrJson, textOf } from './parse.js';
import { handleFromHref, profileIdFromHref } from './refs.js';

/*
 * Comments as the m. site embeds them in a post's page: div[data-sigil="comment"] inside the post's
 * ufi_<post id> block (facebook-scraper's comments_area_selector), the next page behind
 * #see_next_<post id> a; a video page carries a sample of comments in its JSON-LD posting instead.
 */

export interface CommentsPage {
  items: Comment[];
  /** The "View more comments" href (a path on m.facebook.com), when the page has one. */
  next?: string;
  /** The post's comment count (MLiveData, else JSON-LD). */
  total?: number;
  /** Whether the page had a comments block at all (else the layout is not one this reads). */
  found: boolean;
}

export function pageComments(html: string, postId: string | undefined): CommentsPage {
  const $ = load(html);
  const byId = postId ? $(`[id="ufi_${postId}"]`) : $();
  const ufi = byId.length ? byId.first() : $('div[id^="ufi_"]').first();
  const live = liveData(html);
  const ownId = postId ?? ufi.attr('id')?.replace(/^ufi_/, '');
  const total = ownId ? live.get(ownId)?.comments : undefined;
  if (!ufi.length) return { items: [], total, found: false };
  const items: Comment[] = [];
  ufi.find('div[data-sigil="comment"]').each((_, el) => {
    const c = $(el);
    const cid = (c.attr('id') ?? c.attr('data-uniqueid') ?? '').trim();
    if (!/^\d+$/.test(cid)) return;
    const ring = c.find('[data-sigil^="feed_story_ring"]').first().attr('data-sigil') ?? c.attr('data-sigil') ?? '';
    const nameEl = c.find('._2b05').first();
    const nameLink = nameEl.find('a[href]').first().attr('href') ?? c.find('h3 a[href]').first().attr('href');
    const pic = c.find('img.profpic').first();
    const name = (nameEl.text() || c.find('h3').first().text() || (pic.attr('alt') ?? pic.attr('aria-label') ?? '').replace(/,\s*profile picture$/i, '')).trim();
    const body = c.find('[data-sigil="comment-body"]').first();
    const replies = c.find('[data-sigil="replies-see-more"]').first().text();
    items.push({
      cid,
      text: body.length ? textOf($, body) : '',
      likes: num(c.find('._14va').first().text().replace(/[^\d]/g, '')) ?? 0,
      reply_total: countIn(replies, /repl(?:y|ies)/) ?? 0,
      user_id: /feed_story_ring(\d+)/.exec(ring)?.[1] ?? profileIdFromHref(nameLink) ?? '',
      handle: handleFromHref(nameLink) ?? '',
      user_name: name,
      created_at: num(attrJson(c.find('abbr[data-store]').first().attr('data-store'))?.time) ?? 0,
      source: 'facebook',
    });
  });
  const more = (ownId ? ufi.find(`[id="see_next_${ownId}"] a[href]`) : ufi.find('div[id^="see_next_"] a[href]')).first().attr('href') ?? ufi.find('div[id^="see_next_"] a[href]').first().attr('href');
  return { items, next: more || undefined, total, found: true };
}

/** The comments a video page's JSON-LD posting carries (identifier "<post id>_<comment id>"). */
export function ldComments(html: string): CommentsPage {
  const posting = ldJson(html).find((o) => ldType(o) === 'SocialMediaPosting');
  if (!posting) return { items: [], found: false };
  const items: Comment[] = [];
  for (const raw of Array.isArray(posting.comment) ? posting.comment : []) {
    const c = obj(raw);
    const ident = str(c?.identifier);
    const cid = ident?.split('_').pop();
    if (!c || !cid || !/^\d+$/.test(cid)) continue;
    const author = obj(c.author);
    const url = str(author?.url);
    items.push({
      cid,
      text: (str(c.text) ?? '').trim(),
      likes: 0,
      reply_total: 0,
      user_id: profileIdFromHref(url) ?? '',
      handle: handleFromHref(url) ?? '',
      user_name: str(author?.name) ?? '',
      created_at: isoSeconds(c.dateCreated) ?? 0,
      source: 'facebook',
    });
  }
  return { items, total: num(posting.commentCount), found: true };
}
