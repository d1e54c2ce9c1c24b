import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/cli.js';
import { startService, type Running } from '../helpers/service.js';

/* `crawler run` and `crawler tasks` as spawned processes on pipes (no terminal), against the service replaying the sandbox. */
let s: Running;
let env: Record<string, string>;

beforeAll(async () => {
  s = await startService({ config: { replay: [resolve(ROOT, 'sandbox')] } });
  env = { CRAWLER_URL: s.base, CRAWLER_TOKEN: await s.token(['read', 'write']) };
});
afterAll(async () => {
  await s?.close();
});

const WEIBO = ['run', 'weibo', 'posts', '6279793937', '--param', 'limit=5'];
const THREAD = 'https://bsky.app/profile/bsky.app/post/3lbaafjknk22b';

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    else cell += c;
  }
  return rows;
}

describe('crawler run: output formats (not a terminal)', () => {
  it('prints a table: a header, one row per item; stderr carries no progress bar, only the replay warning', async () => {
    const r = await cli(WEIBO, env);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+AUTHOR\s+TIME \(UTC\)\s+TEXT\s+STATS$/);
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(/^weibo:4645748019299849\s+明日方舟Arknights\s+2021-06-08 01:35\s+音律联觉.*♥ 37k/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(120);
    expect(r.stderr).toBe('warning: replayed from recordings (CRAWLER_REPLAY): not a live crawl\n');
  });

  it('--json prints the task’s result as the service returned it', async () => {
    const r = await cli([...WEIBO, '--json'], env);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ ok: true, count: 5, next_cursor: expect.any(String) });
    expect(result.items.map((i: { id: string }) => i.id)[0]).toBe('weibo:4645748019299849');
  });

  it('--ndjson prints one item per line; a page-by-page walk streams every page', async () => {
    const one = await cli([...WEIBO, '--ndjson'], env);
    const lines = one.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(5);
    expect(lines.map((l) => JSON.parse(l).id)[4]).toMatch(/^weibo:\d+$/);
    const walk = await cli([...WEIBO, '--ndjson', '--by-page', '--max-items', '-1'], env);
    expect(walk.code, walk.stderr).toBe(0);
    const ids = walk.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);
  });

  it('--json of a multi-task walk is one envelope: every item, summed count', async () => {
    const r = await cli([...WEIBO, '--json', '--by-page', '--max-items', '6'], env);
    const merged = JSON.parse(r.stdout);
    expect(merged.count).toBe(6);
    expect(merged.items).toHaveLength(6);
  });

  it('--csv has stable columns, quoted ids, absolute media URLs, text with line breaks intact', async () => {
    const r = await cli([...WEIBO, '--csv'], env);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\r\n')[0]).toBe('id,type,provider,created_at,author,author_handle,author_id,title,text,url,likes,comments,shares,views,duration_s,width,height,thumb,media_url,preview_url,provenance');
    expect(r.stdout).toContain('\r\n"weibo:4645748019299849",video,weibo,2021-06-08T01:35:04.000Z,');
    expect(r.stdout).toContain(',"6279793937",');
    const rows = parseCsv(r.stdout);
    expect(rows).toHaveLength(6);
    const head = rows[0]!;
    const first = Object.fromEntries(head.map((h, i) => [h, rows[1]![i]]));
    expect(first.text).toContain('\n');
    expect(first.thumb).toMatch(new RegExp(`^${s.base}/v1/media\\?u=`));
    expect(first.likes).toBe('37053');
  });

  it('--csv neutralises cells a spreadsheet would run as formulas', async () => {
    const r = await cli(['run', 'bluesky', 'comments', THREAD, '--csv'], env);
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout);
    const text = rows[0]!.indexOf('text');
    const texts = rows.slice(1).map((row) => row[text]);
    expect(texts).toContain("'+1");
    expect(texts.every((t) => !/^[=+\-@]/.test(t!))).toBe(true);
    expect(r.stdout).toMatch(/\r\n"at:\/\/did:plc:[a-z0-9]+\/app\.bsky\.feed\.post\/\w+",/);
  });

  it('prints comments, trends and a creator in their own columns', async () => {
    const comments = await cli(['run', 'reddit', 'comments', 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/', '--param', 'limit=4'], env);
    expect(comments.stdout.split('\n')[0]).toMatch(/^ID\s+USER\s+TIME \(UTC\)\s+LIKES\s+TEXT$/);
    expect(comments.stdout).toMatch(/^lm4a002\s+thock_enjoyer\s+.*↳ Same here/m);
    const trends = await cli(['run', 'mastodon', 'trending'], env);
    expect(trends.stdout.split('\n').slice(0, 2).join('\n')).toMatch(/^#\s+WORD\s+HOT\s+URL\n1\s+#otters\s+340\s+https:\/\/mastodon\.social\/tags\/otters$/);
    const trendsCsv = await cli(['run', 'mastodon', 'trending', '--csv'], env);
    expect(trendsCsv.stdout.split('\r\n').slice(0, 2)).toEqual(['rank,word,hot_value,url,source', '1,#otters,340,https://mastodon.social/tags/otters,mastodon']);
    const user = await cli(['run', 'reddit', 'user', 'keebsmith', '--ndjson'], env);
    expect(JSON.parse(user.stdout)).toMatchObject({ handle: 'keebsmith', followers: 1843 });
    const table = await cli(['run', 'reddit', 'user', 'keebsmith'], env);
    expect(table.stdout).toMatch(/^handle\s+keebsmith$/m);
  });
});

describe('crawler run: errors and exit codes', () => {
  it('a crawl error in the result: one line with the code on stderr, exit 1', async () => {
    const r = await cli(['run', 'reddit', 'hot', '--param', 'subreddit=AskHistorians'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: blocked: .*\[task t_\w+\] \(retryable\)$/m);
  });

  it('a refusal by the service: exit 3 with its code and HTTP status', async () => {
    const unknown = await cli(['run', 'nosuch', 'posts', 'x'], env);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([3, 'error: unsupported (HTTP 404): unknown source "nosuch" (see GET /v1/task-sources)']);
    const range = await cli(['run', 'weibo', 'posts', 'x', '--param', 'limit=1000'], env);
    expect(range.code).toBe(3);
    expect(range.stderr).toMatch(/^error: invalid_request \(HTTP 400\): params\.limit/);
    const token = await cli(['tasks', 'list'], { ...env, CRAWLER_TOKEN: 'crw_nope' });
    expect([token.code, token.stderr]).toEqual([3, 'error: auth_required (HTTP 401): invalid or revoked token\n']);
    const down = await cli(['run', 'weibo', 'posts', 'x', '--url', 'http://127.0.0.1:9'], env);
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/^error: network_error: .* \(retryable\)$/m);
  });

  it('a bad command line: exit 2 and a message naming the option', async () => {
    for (const [args, message] of [
      [['run', 'weibo', 'posts', 'x', '--param', 'limit=abc'], /--param limit: expected an integer/],
      [[...WEIBO, '--param', 'force=maybe'], /--param force: expected true or false/],
      [[...WEIBO, '--param', 'limit=6'], /--param limit: given twice/],
      [[...WEIBO, '--json', '--csv'], /choose one output format/],
      [['run', 'reddit', 'user', 'x', '--max-items', '3'], /--max-items and --by-page: only for actions that page/],
      [[...WEIBO, '--max-items', '0'], /--max-items: -1 \(everything\) or a whole number from 1/],
      [['run', 'weibo'], /missing required argument 'action'/],
      [['tasks', 'frobnicate'], /unknown command 'frobnicate'/],
    ] as const) {
      const r = await cli([...args], env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });

  it('a write verb answers its plan and does nothing: exit 5', async () => {
    const before = (await s.api('/v1/tasks?limit=100')).body.tasks.length;
    const r = await cli(['run', 'mastodon', 'post.create', '--param', 'text=hello', '--json'], env);
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'needs_confirmation', plan: { action: 'mastodon.post.create' } });
    expect(r.stderr).toMatch(/--param confirm=true/);
    expect((await s.api('/v1/tasks?limit=100')).body.tasks.length).toBe(before);
    const dry = await cli(['run', 'mastodon', 'post.create', '--param', 'text=hello', '--param', 'dry_run=true', '--ndjson'], env);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ ok: true, state: 'planned' });
  });
});

describe('crawler tasks', () => {
  it('list, get, cancel and retry in every format', async () => {
    await cli([...WEIBO, '--json'], env);
    const list = await cli(['tasks', 'list', '--source', 'weibo', '--limit', '2', '--ndjson'], env);
    expect(list.code).toBe(0);
    const tasks = list.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(tasks).toHaveLength(2);
    expect(list.stderr).toMatch(/^more: crawler tasks list --cursor t_\w+$/m);
    const id = tasks[0].task_id as string;

    const table = await cli(['tasks', 'list', '--source', 'weibo', '--limit', '2'], env);
    expect(table.stdout).toMatch(/^ID\s+STATUS\s+TASK\s+QUERY\s+CREATED \(UTC\)\s+ITEMS\s+TRIES$/m);
    expect(table.stdout).toContain(`${id}  succeeded  weibo.posts`);
    const csv = await cli(['tasks', 'list', '--limit', '1', '--csv'], env);
    expect(csv.stdout.split('\r\n')[0]).toBe('task_id,status,source,action,query,created_at,started_at,finished_at,attempts,items,pages,error_code');

    const got = await cli(['tasks', 'get', id, '--json'], env);
    expect(JSON.parse(got.stdout)).toMatchObject({ task_id: id, status: 'succeeded', result: { ok: true } });
    const shown = await cli(['tasks', 'get', id], env);
    expect(shown.stdout).toMatch(new RegExp(`^task\\s+${id}\\nstatus\\s+succeeded\\naction\\s+weibo\\.posts`));
    expect(shown.stdout).toMatch(/^ID\s+AUTHOR\s+TIME \(UTC\)\s+TEXT\s+STATS$/m);

    const ended = await cli(['tasks', 'cancel', id], env);
    expect([ended.code, ended.stdout]).toEqual([0, `${id} succeeded\n`]);
    const refused = await cli(['tasks', 'retry', id], env);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^error: invalid_request \(HTTP 409\)/);

    const failed = await cli(['run', 'reddit', 'posts', 'r/AskHistorians', '--json'], env);
    expect(failed.code).toBe(1);
    const failedId = /\[task (t_\w+)\]/.exec(failed.stderr)![1]!;
    const retried = await cli(['tasks', 'retry', failedId, '--json'], env);
    expect(JSON.parse(retried.stdout)).toMatchObject({ task_id: failedId, status: 'queued', attempts: 2 });
    const missing = await cli(['tasks', 'get', 't_0000000000000000000000000'], env);
    expect([missing.code, missing.stderr]).toEqual([3, 'error: not_found (HTTP 404): no task "t_0000000000000000000000000"\n']);
  });
});
