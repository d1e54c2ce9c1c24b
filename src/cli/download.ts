import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { CrawlerError, type DownloadResult, type Task } from '../../client/dist/index.js';
import { connect, connectionOptions, type ConnectionOptions } from './connect.js';
import { describe, EXIT, usageExits, UsageError, exitingAction } from './exit.js';
import { Session } from './session.js';
import { elapsed } from './text.js';

interface DownloadOptions extends ConnectionOptions {
  source?: string;
  out: string;
  quality: string;
  media: string;
  json?: boolean;
}

/** Hosts of post links → catalog source, so `crawler download <url>` needs no --source for the usual links. */
const HOSTS: Array<[RegExp, string]> = [
  [/(^|\.)(douyin|iesdouyin)\.com$/, 'douyin'],
  [/(^|\.)tiktok\.com$/, 'tiktok'],
  [/(^|\.)(bilibili\.com|b23\.tv)$/, 'bilibili'],
  [/(^|\.)(youtube\.com|youtu\.be)$/, 'youtube'],
  [/(^|\.)(xiaohongshu\.com|xhslink\.com)$/, 'xiaohongshu'],
  [/(^|\.)(twitter\.com|x\.com)$/, 'twitter'],
  [/(^|\.)instagram\.com$/, 'instagram'],
  [/(^|\.)(reddit\.com|redd\.it)$/, 'reddit'],
  [/(^|\.)(kuaishou\.com|chenzhongtech\.com)$/, 'kuaishou'],
  [/(^|\.)weibo\.(com|cn)$/, 'weibo'],
  [/(^|\.)pinterest\.[a-z.]+$|(^|\.)pin\.it$/, 'pinterest'],
  [/(^|\.)bsky\.app$/, 'bluesky'],
  [/(^|\.)threads\.(net|com)$/, 'threads'],
  [/(^|\.)facebook\.com$|(^|\.)fb\.watch$/, 'facebook'],
];

export function sourceOfLink(link: string): string | undefined {
  let host: string;
  try {
    host = new URL(link).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  return HOSTS.find(([re]) => re.test(host))?.[1];
}

function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The bytes/files line on stderr while the service downloads (nothing when stderr is not a terminal). */
function bar(stream: NodeJS.WriteStream) {
  if (!stream.isTTY) return { update(_p: { bytes?: number; files?: number; files_total?: number }) {}, stop() {} };
  let files = '0';
  const b = new cliProgress.SingleBar({
    stream,
    fps: 8,
    hideCursor: true,
    barsize: 24,
    barCompleteChar: '#',
    barIncompleteChar: '.',
    format: (options, params) => `[${cliProgress.Format.BarFormat(params.total ? Math.min(1, params.value / params.total) : 0, options)}] files ${files} · ${mb(params.value)} · ${elapsed(Date.now() - params.startTime)}`,
  });
  b.start(0, 0);
  return {
    update(p: { bytes?: number; files?: number; files_total?: number }) {
      files = `${p.files ?? 0}/${p.files_total ?? '?'}`;
      b.setTotal(Math.max(p.bytes ?? 0, 1) * ((p.files_total ?? 1) / Math.max(1, (p.files ?? 0) + 1)));
      b.update(p.bytes ?? 0);
    },
    stop() {
      b.stop();
    },
  };
}

/** Fetches one stored file (its signed URL needs no token) into dir, under a temp name until whole. */
async function save(session: Session, url: string, dir: string, name: string, signal: AbortSignal): Promise<string> {
  // The name comes from the service: only its last path segment is used, so it cannot leave the folder.
  const safe = basename(name);
  if (!safe || safe === '.' || safe === '..') throw new Error(`the service gave an unusable file name: ${JSON.stringify(name)}`);
  const target = join(dir, safe);
  const tmp = `${target}.part`;
  const res = await fetch(session.client.mediaUrl(url), { signal });
  if (!res.ok || !res.body) throw new Error(`GET ${name}: HTTP ${res.status}`);
  try {
    await pipeline(Readable.fromWeb(res.body as never), createWriteStream(tmp), { signal });
    await rename(tmp, target);
  } finally {
    await rm(tmp, { force: true });
  }
  return target;
}

async function download(link: string, o: DownloadOptions): Promise<number> {
  const source = o.source ?? sourceOfLink(link);
  if (!source) throw new UsageError(`--source: which platform is ${JSON.stringify(link.slice(0, 80))}? (e.g. --source douyin)`);
  if (!['best', 'smallest'].includes(o.quality)) throw new UsageError('--quality: best or smallest');
  if (!['video', 'image', 'any'].includes(o.media)) throw new UsageError('--media: video, image or any');
  const session = new Session(connect(o)).catchInterrupt('interrupted: cancelling the download on the server (Ctrl-C again to quit at once)');
  const signal = session.signal();
  const progress = bar(process.stderr);
  const started = Date.now();
  let task: Task<DownloadResult>;
  try {
    task = (await session.client.run({ source, action: 'download', params: { query: link, quality: o.quality, media: o.media as 'video' | 'image' | 'any' } }, { signal, onProgress: (p) => progress.update(p) })) as Task<DownloadResult>;
  } finally {
    progress.stop();
  }
  if (task.status !== 'succeeded') {
    session.note(describe(task.error ? CrawlerError.fromBody(task.error, 0, { task_id: task.task_id }) : new Error(`task ${task.task_id} ${task.status}`)));
    return EXIT.crawl;
  }
  const result = task.result as DownloadResult;
  for (const w of result.warnings ?? []) session.note(`warning: ${w}`);
  if (result.error) {
    session.note(describe(CrawlerError.fromBody(result.error, 0, { task_id: task.task_id })));
    return EXIT.crawl;
  }
  if (!result.files.length) {
    session.note(`nothing to save: the post carries no ${o.media === 'any' ? 'video or images' : o.media}`);
    return EXIT.ok;
  }
  const dir = resolve(o.out);
  await mkdir(dir, { recursive: true });
  const saved: string[] = [];
  for (const f of result.files) saved.push(await save(session, f.url, dir, f.name, signal));
  if (o.json) session.out.write(`${JSON.stringify({ task_id: task.task_id, files: result.files.map((f, i) => ({ ...f, path: saved[i] })) })}\n`);
  else for (let i = 0; i < saved.length; i++) session.out.write(`${saved[i]}\t${result.files[i].kind}\t${mb(result.files[i].bytes)}\t${result.files[i].source_quality}\n`);
  session.note(`${saved.length} file(s) saved to ${dir} · ${elapsed(Date.now() - started)}`);
  return EXIT.ok;
}

export function downloadCommand(program: Command): void {
  const cmd = usageExits(program.command('download <url>'))
    .description("store a post's video or images on the service (watermark-free where the platform offers it) and save them into a folder")
    .option('--source <source>', 'the platform (default: from the link\'s host)')
    .option('--out <dir>', 'folder to save into', '.')
    .option('--quality <q>', 'best or smallest', 'best')
    .option('--media <kind>', 'video, image or any', 'any')
    .option('--json', 'print the files (with their saved paths) as JSON');
  connectionOptions(cmd).action(exitingAction((url: string, o: DownloadOptions) => download(url, o)));
}
