import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/cli.js';
import { startService, until, type Running } from '../helpers/service.js';

/* `crawler batch` and `crawler export` as spawned processes, against the service replaying the sandbox. */
let s: Running;
let env: Record<string, string>;
const dir = mkdtempSync(join(tmpdir(), 'crawler-bulk-'));

beforeAll(async () => {
  s = await startService({ config: { replay: [resolve(ROOT, 'sandbox')] } });
  env = { CRAWLER_URL: s.base, CRAWLER_TOKEN: await s.token(['read', 'write']) };
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('crawler batch and crawler export', () => {
  it('submits a JSON-lines batch (refusals by index), then exports the task as CSV to a file', async () => {
    const file = join(dir, 'tasks.jsonl');
    writeFileSync(file, ['{"source":"weibo","action":"posts","params":{"query":"6279793937","limit":5}}', '{"source":"nope","action":"search"}', ''].join('\n'));
    const r = await cli(['batch', file], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^batch b_\S+: 1 accepted, 1 refused\n/);
    expect(r.stdout).toMatch(/#1 refused: unsupported: /);
    const taskId = /#0 (t_\S+)/.exec(r.stdout)![1]!;
    await until(async () => ((await s.api(`/v1/tasks/${taskId}`)).body.status === 'succeeded' ? true : undefined));

    const out = join(dir, 'posts.csv');
    const e = await cli(['export', taskId, '--format', 'csv', '--out', out], env);
    expect(e.code, e.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\r\n');
    expect(lines[0]).toMatch(/^id,type,provider,/);
    expect(lines.filter((l) => l.startsWith('"weibo:'))).toHaveLength(5);
    const jsonl = await cli(['export', taskId], env);
    expect(jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toHaveLength(5);
  });

  it('says what is wrong: a missing task, a bad format, a file that is not JSON', async () => {
    const missing = await cli(['export', 't_nope'], env);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^error: not_found \(HTTP 404\)/);
    expect((await cli(['export', 't_nope', '--format', 'xlsx'], env)).code).toBe(2);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"source":"weibo"\n');
    const r = await cli(['batch', bad], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 1 of the batch file is not JSON/);
  });
});
