import type { Author, Comment, Item, TaskSummary, Trend, WriteResult } from '../../client/dist/index.js';
import type { CsvValue } from './csv.js';
import { clean, compact, time } from './text.js';

/** What a result is made of, by action (the spec keys shapes on the action, never the platform). */
export type Shape = 'items' | 'comments' | 'trends' | 'creator' | 'write' | 'other';

export function shapeOf(action: string): Shape {
  if (['search', 'posts', 'hot', 'recommended', 'detail'].includes(action)) return 'items';
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

/** A table column: `flex` takes the width the others leave. */
export interface TableColumn<T> {
  header: string;
  cell: (row: T) => string;
  flex?: boolean;
  max?: number;
  right?: boolean;
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

export const taskCsv: Array<CsvColumn<TaskSummary>> = [
  { header: 'task_id', value: (t) => t.task_id, id: true },
  { header: 'status', value: (t) => t.status },
  { header: 'source', value: (t) => t.source },
  { header: 'action', value: (t) => t.action },
  { header: 'query', value: (t) => t.params.query as string | undefined },
  { header: 'created_at', value: (t) => t.created_at },
  { header: 'started_at', value: (t) => t.started_at },
  { header: 'finished_at', value: (t) => t.finished_at },
  { header: 'attempts', value: (t) => t.attempts },
  { header: 'items', value: (t) => t.progress?.items },
  { header: 'pages', value: (t) => t.progress?.pages },
  { header: 'error_code', value: (t) => t.error?.code },
];

function stats(s: Item['stats']): string {
  const parts: string[] = [];
  if (s.likes !== undefined) parts.push(`♥ ${compact(s.likes)}`);
  if (s.comments !== undefined) parts.push(`✎ ${compact(s.comments)}`);
  if (s.shares !== undefined) parts.push(`↻ ${compact(s.shares)}`);
  if (s.views !== undefined) parts.push(`▶ ${compact(s.views)}`);
  return parts.join(' ');
}

export const itemTable: Array<TableColumn<Item>> = [
  { header: 'ID', cell: (i) => i.id, max: 32 },
  { header: 'AUTHOR', cell: (i) => clean(i.author ?? i.author_handle ?? ''), max: 18 },
  { header: 'TIME (UTC)', cell: (i) => time(i.ts) },
  { header: 'TEXT', cell: (i) => clean([i.title, i.text].filter(Boolean).join(' — ')), flex: true },
  { header: 'STATS', cell: (i) => stats(i.stats), max: 30 },
];

export const commentTable: Array<TableColumn<Comment>> = [
  { header: 'ID', cell: (c) => c.cid, max: 24 },
  { header: 'USER', cell: (c) => clean(c.user_name || c.handle), max: 18 },
  { header: 'TIME (UTC)', cell: (c) => time(c.created_at) },
  { header: 'LIKES', cell: (c) => compact(c.likes), right: true },
  { header: 'TEXT', cell: (c) => `${c.parent_id ? '↳ ' : ''}${clean(c.text)}`, flex: true },
];

export const trendTable: Array<TableColumn<Trend>> = [
  { header: '#', cell: (t) => String(t.rank), right: true },
  { header: 'WORD', cell: (t) => clean(t.word), flex: true },
  { header: 'HOT', cell: (t) => (t.hot_value === undefined ? '' : compact(t.hot_value)), right: true },
  { header: 'URL', cell: (t) => t.url ?? '', max: 60 },
];

/** The query, else the params that say what was asked (subreddit, board…), without the defaults every task carries. */
function queryOf(params: Record<string, unknown>): string {
  if (params.query !== undefined) return String(params.query);
  return Object.entries(params)
    .filter(([k]) => !['limit', 'force', 'profile', 'cursor'].includes(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
}

export const taskTable: Array<TableColumn<TaskSummary>> = [
  { header: 'ID', cell: (t) => t.task_id },
  { header: 'STATUS', cell: (t) => t.status },
  { header: 'TASK', cell: (t) => `${t.source}.${t.action}` },
  { header: 'QUERY', cell: (t) => clean(queryOf(t.params)), flex: true },
  { header: 'CREATED (UTC)', cell: (t) => t.created_at.slice(0, 16).replace('T', ' ') },
  { header: 'ITEMS', cell: (t) => (t.progress ? String(t.progress.items) : ''), right: true },
  { header: 'TRIES', cell: (t) => String(t.attempts), right: true },
];
