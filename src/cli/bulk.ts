import { readFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { TaskInput } from '../../client/dist/index.js';
import { connect, connectionOptions, type ConnectionOptions } from './connect.js';
import { EXIT, usageExits, UsageError, exitingAction } from './exit.js';


/** A JSON array of {source, action, params}, or one such object a line (JSON lines). */
export function parseBatchFile(text: string): TaskInput[] {
  const trimmed = text.trim();
  if (!trimmed) throw new UsageError('the batch file is empty');
  let entries: unknown[];
  if (trimmed.startsWith('[')) {
    try {
      entries = JSON.parse(trimmed) as unknown[];
    } catch (e) {
      throw new UsageError(`the batch file is not valid JSON: ${(e as Error).message}`);
    }
  } else {
    entries = trimmed.split(/\r?\n/).filter((l) => l.trim()).map((line, i) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw new UsageError(`line ${i + 1} of the batch file is not JSON`);
      }
    });
  }
  return entries as TaskInput[];
}

export function bulkCommands(program: Command): void {
  connectionOptions(usageExits(program.command('batch <file>')))
    .description('submit up to 500 read tasks at once: a JSON array, or JSON lines, of {source, action, params} ("-" reads stdin)')
    .option('--json', 'print the raw answer')
    .action(
      exitingAction(async (file: string, o: ConnectionOptions & { json?: boolean }) => {
        const text = file === '-' ? await new Response(Readable.toWeb(process.stdin) as ReadableStream).text() : await readFile(file, 'utf8').catch(() => {
          throw new UsageError(`cannot read ${file}`);
        });
        const answer = await connect(o).batch(parseBatchFile(text));
        if (o.json) process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
        else {
          process.stdout.write(`batch ${answer.batch_id}: ${answer.accepted} accepted, ${answer.refused.length} refused\n`);
          for (const t of answer.tasks) process.stdout.write(`  #${t.index} ${t.task_id} ${t.status ?? ''}\n`);
          for (const r of answer.refused) process.stdout.write(`  #${r.index} refused: ${r.error.code}: ${r.error.message}\n`);
        }
        return answer.accepted > 0 || answer.refused.length === 0 ? EXIT.ok : EXIT.service;
      }),
    );

  connectionOptions(usageExits(program.command('export <id>')))
    .description("a succeeded task's rows (t_…), or a watch's collected new items (w_…), as JSON lines or CSV, streamed")
    .option('--format <format>', 'jsonl or csv', 'jsonl')
    .option('--out <file>', 'write to this file instead of stdout')
    .action(
      exitingAction(async (id: string, o: ConnectionOptions & { format: string; out?: string }) => {
        if (o.format !== 'jsonl' && o.format !== 'csv') throw new UsageError('--format: jsonl or csv');
        const res = await connect(o).export(id.startsWith('w_') ? { watch: id } : id, { format: o.format });
        const body = Readable.fromWeb(res.body as never);
        await pipeline(body, o.out ? createWriteStream(o.out) : process.stdout, { end: !!o.out });
        return EXIT.ok;
      }),
    );
}
