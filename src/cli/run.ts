import type { Command } from 'commander';
import { CrawlerError, type CatalogEntry, type CommentsResult, type Envelope, type NeedsConfirmation, type Page, type PagedAction, type Params, type Task, type WriteResult } from '../../client/dist/index.js';
import { shapeOf, type Shape } from './columns.js';
import { connect, connectionOptions, formatOf, formatOptions, type ConnectionOptions, type FormatOptions } from './connect.js';
import { describe, EXIT, exitCodeOf, usageExits, UsageError, exitingAction } from './exit.js';
import { mergePages } from './merge.js';
import { collect, parseParams } from './params.js';
import { progressView, type ProgressView } from './progress.js';
import { Printer, rowsOf } from './render.js';
import { Session } from './session.js';

interface RunOptions extends ConnectionOptions, FormatOptions {
  param: string[];
  maxItems?: string;
  byPage?: boolean;
  wait?: string;
}

function parseMaxItems(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^(-1|[1-9]\d*)$/.test(raw.trim())) throw new UsageError(`--max-items: -1 (everything) or a whole number from 1, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

function parseWait(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const s = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(s) || s <= 0) throw new UsageError(`--wait: seconds, more than 0, got ${JSON.stringify(raw)}`);
  return Math.round(s * 1000);
}

/** The catalog types --param values; a token without `read` (write-only) cannot see it, and the values stay untyped. */
async function catalogFor(session: Session, needed: boolean): Promise<CatalogEntry[]> {
  if (!needed) return [];
  try {
    return await session.client.catalog();
  } catch (e) {
    if (e instanceof CrawlerError && e.code === 'forbidden_scope') return [];
    throw e;
  }
}

/** Where a finished task leaves the run: 0 for a usable result, else the crawl's error on stderr and 1. */
function outcome(session: Session, task: Task<unknown>, shape: Shape): number {
  if (task.status === 'failed') {
    session.note(describe(task.error ? CrawlerError.fromBody(task.error, 0, { task_id: task.task_id }) : new Error(`task ${task.task_id} failed`)));
    return EXIT.crawl;
  }
  if (task.status === 'cancelled') {
    session.note(`error: cancelled: task ${task.task_id} was cancelled`);
    return EXIT.crawl;
  }
  const result = task.result as { error?: { code: 'blocked'; message: string; retryable: boolean }; warnings?: string[]; state?: WriteResult['state'] } | undefined;
  for (const w of result?.warnings ?? []) session.note(`warning: ${w}`);
  if (result?.error) {
    session.note(describe(CrawlerError.fromBody(result.error, 0, { task_id: task.task_id })));
    return EXIT.crawl;
  }
  if (shape === 'write' && !['published', 'deleted', 'planned'].includes(result?.state ?? '')) return EXIT.crawl;
  return EXIT.ok;
}

function summary(session: Session, taskIds: string[], items: number, result: { source?: string } | undefined, started: number): void {
  if (!process.stderr.isTTY) return;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  session.note(`${items} items · ${result?.source ?? '?'} · ${taskIds.length === 1 ? `task ${taskIds[0]}` : `${taskIds.length} tasks`} · ${seconds} s`);
}

async function run(source: string, action: string, query: string | undefined, o: RunOptions): Promise<number> {
  const format = formatOf(o);
  const maxItems = parseMaxItems(o.maxItems);
  const waitMs = parseWait(o.wait);
  const shape = shapeOf(action);
  const paged = shape === 'items' || shape === 'comments';
  if ((maxItems !== undefined || o.byPage) && !paged) throw new UsageError(`--max-items and --by-page: only for actions that page (search, posts, hot, recommended, comments), not ${action}`);
  const session = new Session(connect(o)).catchInterrupt('interrupted: cancelling the task on the server (Ctrl-C again to quit at once)');
  const params: Params = parseParams(o.param, source, action, await catalogFor(session, o.param.length > 0));
  if (query !== undefined) {
    if ('query' in params) throw new UsageError('query: given both as an argument and as --param query=…');
    params.query = query;
  }
  const printer = new Printer(format, shape, session.out, (u) => (u === undefined ? undefined : session.client.mediaUrl(u)));
  const bar: ProgressView = progressView(process.stderr, maxItems !== undefined && maxItems > 0 ? maxItems : undefined);
  const signal = session.signal(waitMs);
  const taskIds: string[] = [];
  const pages: Array<Page<PagedAction>> = [];
  const started = Date.now();
  const onTask = (id: string) => taskIds.push(id);
  const onProgress = (p: { items: number; pages: number }) => bar.update(p);
  const printCollected = () => {
    const merged = mergePages(pages.map((p) => p.result as Envelope | CommentsResult));
    if (merged) printer.end(merged);
  };
  try {
    if (paged) {
      // Without --max-items or --by-page: the one task the params describe (its next_cursor is in --json).
      for await (const page of session.client.pages(source, action as PagedAction, params, { maxItems, mode: o.byPage ? 'pages' : maxItems === undefined ? 'task' : 'auto', signal, onTask, onProgress })) {
        pages.push(page);
        printer.rows(page.result.items);
      }
      bar.stop();
      const merged = mergePages(pages.map((p) => p.result as Envelope | CommentsResult));
      printer.end(merged);
      for (const w of merged?.warnings ?? []) session.note(`warning: ${w}`);
      summary(session, taskIds, merged?.items.length ?? 0, merged, started);
      return EXIT.ok;
    }
    const done = await session.client.run({ source, action, params }, { signal, onTask, onProgress: (p) => onProgress(p) });
    bar.stop();
    if ((done as NeedsConfirmation).status === 'needs_confirmation') {
      const plan = (done as NeedsConfirmation).plan;
      if (format === 'json' || format === 'ndjson') session.out.write(`${JSON.stringify(done)}\n`);
      session.note(`needs confirmation: ${plan.summary}\nnothing was done; run again with --param confirm=true (or --param dry_run=true to check it)`);
      return EXIT.confirm;
    }
    const task = done as Task<unknown>;
    if (task.status === 'succeeded') {
      printer.rows(rowsOf(shape, task.result));
      printer.end(task.result);
      summary(session, taskIds, rowsOf(shape, task.result).length, task.result as { source?: string }, started);
    }
    return outcome(session, task, shape);
  } catch (e) {
    bar.stop();
    printCollected();
    const collected = pages.reduce((n, p) => n + p.result.items.length, 0);
    const last = taskIds.at(-1);
    if (session.interrupted) {
      session.note(`interrupted: ${last ? `task ${last} cancelled on the server; ` : ''}${collected} items collected${pages.length ? ` from ${pages.length} finished task(s)` : ''}`);
      return EXIT.interrupted;
    }
    if (signal.aborted) {
      session.note(`timed out after ${o.wait} s: ${last ? `task ${last} goes on (crawler tasks watch ${last})` : 'no task was accepted'}`);
      return EXIT.timeout;
    }
    if (pages.length) session.note(`stopped after ${collected} items from ${pages.length} finished task(s)`);
    session.note(describe(e));
    return exitCodeOf(e);
  }
}

export function runCommand(program: Command): void {
  const cmd = usageExits(program.command('run <source> <action> [query]'))
    .description('crawl through a running service and print the result: a table, or --json, --ndjson, --csv (exit codes: README, "CLI")')
    .option('-p, --param <key=value>', 'a task param, typed by the catalog (repeatable), e.g. --param limit=10', collect, [] as string[])
    .option('--max-items <n>', 'walk to n items (-1: all): one paced task where the action takes max_items (posts, comments), else next_cursor page by page')
    .option('--by-page', 'follow next_cursor one task per page even where the service could walk in one task (Ctrl-C then keeps the finished pages)')
    .option('--wait <seconds>', 'stop waiting after this long; the task goes on on the service (exit 4)');
  connectionOptions(formatOptions(cmd)).action(exitingAction((source: string, action: string, query: string | undefined, o: RunOptions) => run(source, action, query, o)));
}
