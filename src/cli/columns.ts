import type { Comment, Item, TaskSummary, Trend } from '../../client/dist/index.js';
import type { CsvColumn } from '../exports/columns.js';
import { clean, compact, time } from './text.js';

// Result shapes and the CSV column sets live with the export writer, shared with GET /v1/tasks/{id}/export.
export { shapeOf, writeCsv, type CsvColumn, type Shape } from '../exports/columns.js';

/** A table column: `flex` takes the width the others leave. */
export interface TableColumn<T> {
  header: string;
  cell: (row: T) => string;
  flex?: boolean;
  max?: number;
  right?: boolean;
}

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
