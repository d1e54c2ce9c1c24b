import type { Command } from 'commander';
import type { AnyTask, Task, TaskStatus, TaskSummary } from '../../client/dist/index.js';
import { shapeOf, taskCsv, taskTable } from './columns.js';
import { connect, connectionOptions, formatOf, formatOptions, type ConnectionOptions, type FormatOptions } from './connect.js';
import { EXIT, usageExits, UsageError, exitingAction } from './exit.js';
import { progressView } from './progress.js';
import { csvHeader, csvRow, Printer, rowsOf, type Format } from './render.js';
import { Session } from './session.js';
import { keyValues, table } from './table.js';

type Options = ConnectionOptions & FormatOptions;
const STATUSES: readonly TaskStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

/** A task's own fields as `key value` lines, then (table) its result as `run` prints it. */
function printTask(session: Session, format: Format, task: AnyTask | Task<unknown>): number {
  if (format === 'json') {
    session.out.write(`${JSON.stringify(task, null, 2)}\n`);
    return EXIT.ok;
  }
  const shape = shapeOf(task.action);
  if (format === 'table') {
    session.out.write(
      keyValues(
        [
          ['task', task.task_id],
          ['status', task.status],
          ['action', `${task.source}.${task.action}`],
          ['query', task.params.query as string | undefined],
          ['created', task.created_at],
          ['started', task.started_at],
          ['finished', task.finished_at],
          ['attempts', task.attempts],
          ['progress', task.progress ? `${task.progress.items} items, ${task.progress.pages} pages` : undefined],
          ['source', (task.result as { source?: string } | undefined)?.source],
          ['error', task.error ? `${task.error.code}: ${task.error.message}` : (task.result as { error?: { code: string; message: string } } | undefined)?.error ? `${(task.result as { error: { code: string; message: string } }).error.code}: ${(task.result as { error: { code: string; message: string } }).error.message}` : undefined],
        ],
        session.out.columns,
      ),
    );
    if (task.status === 'succeeded' && rowsOf(shape, task.result).length) session.out.write('\n');
  }
  if (task.status === 'succeeded') {
    const printer = new Printer(format, shape, session.out, (u) => (u === undefined ? undefined : session.client.mediaUrl(u)));
    printer.rows(rowsOf(shape, task.result));
    printer.end(task.result);
  }
  return EXIT.ok;
}


export function tasksCommand(program: Command): void {
  const tasks = usageExits(program.command('tasks').description('your tasks on a running service: list, get, cancel, retry, watch'));
  const sub = (spec: string, description: string) => connectionOptions(formatOptions(usageExits(tasks.command(spec).description(description))));

  sub('list', 'your tasks, newest first, without results')
    .option('--status <status>', `only this status: ${STATUSES.join(', ')}`)
    .option('--source <source>', 'only this platform')
    .option('--action <action>', 'only this action')
    .option('--limit <n>', 'at most n tasks (1 to 100)', '24')
    .option('--cursor <cursor>', 'the next page: the cursor a previous list printed')
    .option('--all', "every token's tasks (admin token)")
    .action(
      exitingAction(async (o: Options & { status?: string; source?: string; action?: string; limit: string; cursor?: string; all?: boolean }) => {
        const format = formatOf(o);
        if (o.status !== undefined && !STATUSES.includes(o.status as TaskStatus)) throw new UsageError(`--status: one of ${STATUSES.join(', ')}`);
        if (!/^\d+$/.test(o.limit) || Number(o.limit) < 1 || Number(o.limit) > 100) throw new UsageError('--limit: 1 to 100');
        const session = new Session(connect(o));
        const page = await session.client.list({ status: o.status as TaskStatus | undefined, source: o.source, action: o.action, limit: Number(o.limit), cursor: o.cursor, all: o.all });
        if (format === 'json') session.out.write(`${JSON.stringify(page, null, 2)}\n`);
        else if (format === 'ndjson') for (const t of page.tasks) session.out.write(`${JSON.stringify(t)}\n`);
        else if (format === 'csv') session.out.write(csvHeader(taskCsv) + page.tasks.map((t) => csvRow(taskCsv, t as TaskSummary)).join(''));
        else if (page.tasks.length) session.out.write(table(page.tasks, taskTable, session.out.columns));
        if (page.next_cursor && format !== 'json') session.note(`more: crawler tasks list --cursor ${page.next_cursor}`);
        return EXIT.ok;
      }),
    );

  sub('get <id>', 'a task: its state, and its result once it succeeded').action(
    exitingAction(async (id: string, o: Options) => {
      const format = formatOf(o);
      const session = new Session(connect(o));
      return printTask(session, format, await session.client.get(id));
    }),
  );

  sub('cancel <id>', 'cancel a queued or running task (an ended task is left as it is)').action(
    exitingAction(async (id: string, o: Options) => {
      const format = formatOf(o);
      const session = new Session(connect(o));
      const task = await session.client.cancel(id);
      if (format === 'json' || format === 'ndjson') session.out.write(`${JSON.stringify(task, null, format === 'json' ? 2 : 0)}\n`);
      else session.out.write(`${task.task_id} ${task.status}\n`);
      return EXIT.ok;
    }),
  );

  sub('retry <id>', 'queue a failed, cancelled or blocked task again (same id, attempts + 1)').action(
    exitingAction(async (id: string, o: Options) => {
      const format = formatOf(o);
      const session = new Session(connect(o));
      const task = await session.client.retry(id);
      if (format === 'json' || format === 'ndjson') session.out.write(`${JSON.stringify(task, null, format === 'json' ? 2 : 0)}\n`);
      else session.out.write(`${task.task_id} ${task.status} (attempt ${task.attempts})\n`);
      return EXIT.ok;
    }),
  );

  sub('watch <id>', 'follow a task to its end (live progress on a terminal), then print it like get; Ctrl-C stops watching, the task goes on').action(
    exitingAction(async (id: string, o: Options) => {
      const format = formatOf(o);
      const session = new Session(connect(o)).catchInterrupt('interrupted: no longer watching (the task goes on)');
      const bar = progressView(process.stderr, undefined);
      try {
        for await (const e of session.client.stream(id, { signal: session.interrupt.signal })) {
          if (e.type === 'progress') bar.update(e.progress);
          else if (e.type === 'result') {
            bar.stop();
            printTask(session, format, e.task);
            const result = e.task.result as { error?: unknown } | undefined;
            return e.task.status === 'succeeded' && !result?.error ? EXIT.ok : EXIT.crawl;
          }
        }
        return EXIT.service;
      } catch (e) {
        bar.stop();
        if (session.interrupted) return EXIT.interrupted;
        throw e;
      }
    }),
  );
}
