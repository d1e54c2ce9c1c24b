import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli, Terminal } from '../helpers/cli.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { pacedFeed } from '../helpers/paced-feed.js';
import { startService, type Running } from '../helpers/service.js';

/*
 * `crawler run` and `crawler tasks watch` in a real pseudo-terminal (tmux), against the real service
 * crawling the loopback fake platform with slow pages, so a walk is seen while it runs.
 */
let fake: FakePlatform;
let s: Running;
let env: Record<string, string>;
let term: Terminal | undefined;

beforeAll(async () => {
  Terminal.available();
  fake = await startFakePlatform();
  s = await startService({ adapters: [pacedFeed(fake.adapter)] });
  env = { CRAWLER_URL: s.base, CRAWLER_TOKEN: await s.token(['read']) };
});
afterEach(async () => {
  await term?.close();
  term = undefined;
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

const BAR = /\[[#.]{24}\] (\d+)\/(\d+) items · (\d+) pages · [\d.]+ items\/s · \d+:\d\d/;
const LIVE = /crawling (\d+) items · (\d+) pages · [\d.]+ items\/s · \d+:\d\d/;
const taskOf = async (query: string) => {
  const list = await s.api('/v1/tasks?limit=100', { token: env.CRAWLER_TOKEN });
  return (list.body.tasks as Array<{ task_id: string; status: string; params: { query?: string } }>).find((t) => t.params.query === query);
};

describe('crawler run on a terminal', () => {
  it('shows a live progress bar (items, pages, rate, elapsed) on stderr while a walk runs, then the table', async () => {
    term = new Terminal();
    await term.start(['run', 'fake', 'posts', 'paced-500-bar', '--max-items', '40'], env);
    const [, items, total, pages] = await term.until((screen) => {
      const m = BAR.exec(screen);
      return m && Number(m[3]) >= 1 && Number(m[3]) <= 2 ? m : undefined;
    });
    expect(total).toBe('40');
    expect(Number(items)).toBeGreaterThan(0);
    // Seen while the walk was still running on the server, not after.
    expect((await taskOf('paced-500-bar'))?.status).toBe('running');
    const end = await term.until((screen) => (/EXIT=\d+/.test(screen) ? screen : undefined));
    expect(end).toMatch(/EXIT=0/);
    expect(end).toMatch(/\[#{24}\] 40\/40 items · 4 pages/);
    expect(end).toMatch(/^ID\s+AUTHOR\s+TIME \(UTC\)\s+TEXT\s+STATS/m);
    expect(end).toMatch(/^fake:1040 /m);
    expect(end).toMatch(/40 items · live · task t_/);
    expect(Number(pages)).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('Ctrl-C cancels the task on the server and exits 130', async () => {
    term = new Terminal();
    await term.start(['run', 'fake', 'posts', 'paced-800-ctrlc', '--max-items', '-1'], env);
    await term.until((screen) => {
      const m = LIVE.exec(screen);
      return m && Number(m[2]) >= 1 ? m : undefined;
    });
    await term.keys('C-c');
    const end = await term.until((screen) => (/EXIT=\d+/.test(screen) ? screen : undefined));
    expect(end).toMatch(/EXIT=130/);
    const task = await taskOf('paced-800-ctrlc');
    expect(task?.status).toBe('cancelled');
    expect(end).toContain(`interrupted: task ${task!.task_id} cancelled on the server; 0 items collected`);
  }, 60_000);

  it('Ctrl-C during a page-by-page walk prints the pages already finished', async () => {
    term = new Terminal();
    await term.start(['run', 'fake', 'search', 'paced-1000-pages', '--param', 'limit=10', '--by-page', '--max-items', '25'], env);
    await term.until((screen) => {
      const m = BAR.exec(screen);
      return m && Number(m[1]) >= 10 && Number(m[1]) < 20 ? m : undefined;
    });
    await term.keys('C-c');
    const end = await term.until((screen) => (/EXIT=\d+/.test(screen) ? screen : undefined));
    expect(end).toMatch(/EXIT=130/);
    expect(end).toMatch(/^fake:1001 /m);
    expect(end).toMatch(/^fake:1010 /m);
    expect(end).not.toMatch(/^fake:1011 /m);
    expect(end).toMatch(/10 items collected from 1 finished task/);
  }, 60_000);
});

describe('crawler tasks watch on a terminal', () => {
  it('follows a running task with live progress and prints it at the end', async () => {
    const t = await s.api('/v1/tasks', { method: 'POST', token: env.CRAWLER_TOKEN, json: { source: 'fake', action: 'posts', params: { query: 'paced-300-watch', max_items: -1 } } });
    term = new Terminal();
    await term.start(['tasks', 'watch', t.body.task_id], env);
    await term.until((screen) => LIVE.exec(screen));
    const end = await term.until((screen) => (/EXIT=\d+/.test(screen) ? screen : undefined));
    expect(end).toMatch(/EXIT=0/);
    expect(end).toMatch(/^status\s+succeeded$/m);
    expect(end).toMatch(/^progress\s+45 items, 5 pages$/m);
  }, 60_000);
});

describe('crawler tasks watch, interrupted', () => {
  it('Ctrl-C stops watching (exit 130) and leaves the task running', async () => {
    const t = await s.api('/v1/tasks', { method: 'POST', token: env.CRAWLER_TOKEN, json: { source: 'fake', action: 'posts', params: { query: 'paced-1000-leave', max_items: -1 } } });
    term = new Terminal();
    await term.start(['tasks', 'watch', t.body.task_id], env);
    await term.until((screen) => LIVE.exec(screen));
    await term.keys('C-c');
    const end = await term.until((screen) => (/EXIT=\d+/.test(screen) ? screen : undefined));
    expect(end).toMatch(/EXIT=130/);
    expect(end).toContain('interrupted: no longer watching (the task goes on)');
    expect((await taskOf('paced-1000-leave'))?.status).toBe('running');
    await s.api(`/v1/tasks/${t.body.task_id}/cancel`, { method: 'POST', token: env.CRAWLER_TOKEN });
  }, 60_000);
});

describe('crawler run --wait (not a terminal)', () => {
  it('stops waiting after the deadline with exit 4 and leaves the task running on the server; no progress output on a pipe', async () => {
    const r = await cli(['run', 'fake', 'posts', 'paced-1000-wait', '--max-items', '-1', '--wait', '1', '--ndjson'], env);
    expect(r.code).toBe(4);
    const task = await taskOf('paced-1000-wait');
    expect(r.stderr).toBe(`timed out after 1 s: task ${task!.task_id} goes on (crawler tasks watch ${task!.task_id})\n`);
    expect(['running', 'succeeded']).toContain(task!.status);
    expect(r.stdout).toBe('');
  }, 60_000);
});
