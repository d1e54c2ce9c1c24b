import type { Author, Comment, Item, Trend, WriteResult } from '../../client/dist/index.js';
import type { CsvValue } from './csv.js';

/** What a result is made of, by action (the spec keys shapes on the action, never the platform). */
export type Shape = 'items' | 'comments' | 'trends' | 'creator' | 'write' | 'other';

export function shapeOf(action: string): Shape {
  // download is shape A too: the post's item, plus the stored files.
  if (['search', 'posts', 'hot', 'recommended', 'detail', 'download'].includes(action)) return 'items';
  if (action === 'comments') return 'comments';
  if (action === 'trending') return 'trends';
  if (action === 'user') return 'creator';
  if (['post.create', 'comment.create', 'delete'].includes(action)) return 'write';
  return 'other';
}

/** A CSV column: a stable header, the raw value, and whether it holds an id (always quoted, never a number). */
export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
  id?: boolean;
}

type Resolve = (url: string | undefined) => string | undefined;
const iso = (unixSeconds: number | undefined) => (unixSeconds === undefined ? undefined : new Date(unixSeconds * 1000).toISOString());

export const itemCsv = (resolve: Resolve): Array<CsvColumn<Item>> => [
  { header: 'id', value: (i) => i.id, id: true },
  { header: 'type', value: (i) => i.type },
  { header: 'provider', value: (i) => i.provider },
  { header: 'created_at', value: (i) => iso(i.ts) },
  { header: 'author', value: (i) => i.author },
  { header: 'author_handle', value: (i) => i.author_handle },
  { header: 'author_id', value: (i) => i.author_id, id: true },
  { header: 'title', value: (i) => i.title },
  { header: 'text', value: (i) => i.text },
  { header: 'url', value: (i) => i.url },
  { header: 'likes', value: (i) => i.stats.likes },
  { header: 'comments', value: (i) => i.stats.comments },
  { header: 'shares', value: (i) => i.stats.shares },
  { header: 'views', value: (i) => i.stats.views },
  { header: 'duration_s', value: (i) => i.duration_s },
  { header: 'width', value: (i) => i.aspect?.width },
  { header: 'height', value: (i) => i.aspect?.height },
  { header: 'thumb', value: (i) => resolve(i.thumb) },
  { header: 'media_url', value: (i) => resolve(i.media[0]?.url) },
  { header: 'preview_url', value: (i) => resolve(i.preview?.url) },
  { header: 'provenance', value: (i) => i.provenance },
];

export const commentCsv: Array<CsvColumn<Comment>> = [
  { header: 'cid', value: (c) => c.cid, id: true },
  { header: 'parent_id', value: (c) => c.parent_id, id: true },
  { header: 'created_at', value: (c) => iso(c.created_at) },
  { header: 'user_name', value: (c) => c.user_name },
  { header: 'handle', value: (c) => c.handle },
  { header: 'user_id', value: (c) => c.user_id, id: true },
  { header: 'likes', value: (c) => c.likes },
  { header: 'reply_total', value: (c) => c.reply_total },
  { header: 'text', value: (c) => c.text },
  { header: 'url', value: (c) => c.url },
];

export const trendCsv: Array<CsvColumn<Trend>> = [
  { header: 'rank', value: (t) => t.rank },
  { header: 'word', value: (t) => t.word },
  { header: 'hot_value', value: (t) => t.hot_value },
  { header: 'url', value: (t) => t.url },
  { header: 'source', value: (t) => t.source },
];

export const authorCsv = (resolve: Resolve): Array<CsvColumn<Author>> => [
  { header: 'id', value: (a) => a.id, id: true },
  { header: 'source', value: (a) => a.source },
  { header: 'handle', value: (a) => a.handle },
  { header: 'name', value: (a) => a.name },
  { header: 'followers', value: (a) => a.followers },
  { header: 'following', value: (a) => a.following },
  { header: 'posts', value: (a) => a.posts },
  { header: 'likes', value: (a) => a.likes },
  { header: 'verified', value: (a) => a.verified },
  { header: 'url', value: (a) => a.url },
  { header: 'avatar', value: (a) => resolve(a.avatar) },
  { header: 'bio', value: (a) => a.bio },
];

export const writeCsv: Array<CsvColumn<WriteResult>> = [
  { header: 'ok', value: (w) => w.ok },
  { header: 'state', value: (w) => w.state },
  { header: 'url', value: (w) => w.url },
  { header: 'target', value: (w) => w.target, id: true },
  { header: 'source', value: (w) => w.source },
  { header: 'ms', value: (w) => w.ms },
  { header: 'error_code', value: (w) => w.error?.code },
  { header: 'error_message', value: (w) => w.error?.message },
  { header: 'task_id', value: (w) => w.task_id, id: true },
];

