/** Short text an agent reads first; the whole data is in structuredContent. */

/** Items or comments shown in the text; the rest are only in structuredContent. */
export const TEXT_ITEMS_MAX = 10;
const CLIP = 160;

type Obj = Record<string, any>;

const clip = (s: unknown, n = CLIP): string => {
  const t = String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

const more = (shown: number, total: number) => (total > shown ? [`(${total - shown} more in structuredContent)`] : []);

/** The error a finished task reports: the job's own, or the result's (blocked, session_expired, rejected...). */
export function taskError(task: Obj): { code: string; message: string; retryable: boolean } | undefined {
  if (task.status === 'failed') return task.error ?? { code: 'upstream_error', message: 'the task failed', retryable: true };
  const r = task.result;
  if (task.status !== 'succeeded' || !r) return undefined;
  if (r.ok === false || r.source === 'blocked') return r.error ?? { code: r.source === 'blocked' ? 'blocked' : 'upstream_error', message: `result ${r.state ?? r.source}`, retryable: r.source === 'blocked' };
  return undefined;
}

function itemLines(items: Obj[]): string[] {
  return items.slice(0, TEXT_ITEMS_MAX).map((it, i) => {
    const who = it.author_handle ? `@${it.author_handle}` : it.author;
    const head = clip(it.title || it.text, 120) || '(no text)';
    return `${i + 1}. [${it.type}] ${head}${who ? ` by ${who}` : ''} ${it.url ?? ''} id=${it.id}`.trimEnd();
  });
}

function resultLines(r: Obj): string[] {
  if (typeof r.state === 'string') return [...(r.url ? [r.url] : []), ...(r.target ? [`target ${r.target}`] : [])];
  if (r.data?.author) {
    const a = r.data.author;
    const stats = ['followers', 'following', 'posts', 'likes'].filter((k) => a[k]).map((k) => `${k} ${a[k]}`);
    return [`${a.name ?? ''} ${a.handle ? `@${a.handle}` : ''} ${a.url ?? ''}`.trim(), ...(stats.length ? [stats.join(', ')] : []), ...(a.bio ? [clip(a.bio)] : [])];
  }
  if (r.data?.trends) {
    const trends = r.data.trends as Obj[];
    return [`${trends.length} trends`, ...trends.slice(0, TEXT_ITEMS_MAX).map((t) => `${t.rank}. ${clip(t.word, 80)}${t.hot_value ? ` (${t.hot_value})` : ''}`), ...more(Math.min(TEXT_ITEMS_MAX, trends.length), trends.length)];
  }
  const items = (r.items ?? []) as Obj[];
  if ('has_more' in r) {
    const lines = items.slice(0, TEXT_ITEMS_MAX).map((c, i) => `${i + 1}. ${c.parent_id ? '↳ ' : ''}@${c.handle}: ${clip(c.text)} (${c.likes} likes)`);
    return [`${items.length} comments of ${r.total}${r.has_more ? `; more: pass cursor "${r.cursor}"` : ''}`, ...lines, ...more(lines.length, items.length)];
  }
  const page = r.next_cursor ? `; next page: pass cursor "${r.next_cursor}"` : '';
  return [`${r.count ?? items.length} items${page}`, ...itemLines(items), ...more(Math.min(TEXT_ITEMS_MAX, items.length), items.length)];
}

/** The text for a task object (as GET /v1/tasks/{id} gives it). */
export function summarizeTask(task: Obj, waitedS: number): string {
  const head = `${task.source}.${task.action} task ${task.task_id}`;
  switch (task.status) {
    case 'succeeded': {
      const r = (task.result ?? {}) as Obj;
      const err = taskError(task);
      const provenance = typeof r.state === 'string' ? `write ${r.state}` : `source ${r.source}${r.age_s !== undefined ? ` (cached ${r.age_s} s ago)` : ''}`;
      if (err) return `${head}: ${provenance}, ${err.code}: ${err.message} (retryable: ${err.retryable})`;
      return [`${head}: ${provenance}`, ...resultLines(r)].join('\n');
    }
    case 'failed': {
      const err = taskError(task)!;
      return `${head} failed: ${err.code}: ${err.message} (retryable: ${err.retryable})`;
    }
    case 'cancelled':
      return `${head} was cancelled.`;
    default: {
      const progress = task.progress ? ` (so far ${task.progress.items} items, ${task.progress.pages} pages)` : '';
      return `${head} is still ${task.status} after ${waitedS} s${progress}. Call get_task with task_id "${task.task_id}" and wait_s to wait for the result; the task keeps running meanwhile.`;
    }
  }
}
