import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ItemDraft, PlatformAdapter } from '../../src/platforms/types.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, until, type Running } from '../helpers/service.js';

const LONG_ID = '7312345678901234567';
const TRICKY = ['=HYPERLINK("http://evil.test","click")', '+1+2', '-3', '@SUM(A1)', '\tindent', 'a, b and "c"', 'two\nlines', 'plain'];

/** A platform without a network: posts of query "tricky" are the cells above, "big-N" is N plain posts. */
const exp: PlatformAdapter = {
  id: 'exp',
  name: 'Export test',
  region: 'global',
  auth: 'none',
  hosts: [],
  mediaHosts: [],
  minGapMs: 0,
  authorUrl: () => undefined,
  actions: {
    posts: {
      shape: 'items',
      summary: 'posts',
      walk: true,
      params: [{ name: 'query', type: 'string', required: true, description: 'q' }],
      async page(_ctx, params, cursor) {
        const q = params.query as string;
        if (q === 'tricky') {
          const items = TRICKY.map((text, i): ItemDraft => ({ native_id: i === 0 ? LONG_ID : String(i), type: 'text', text, author: text, author_id: LONG_ID, media: [], ts: 1_700_000_000 + i, stats: { likes: i } }) as ItemDraft);
          return { items };
        }
        const total = Number(/^big-(\d+)$/.exec(q)?.[1] ?? 0);
        const start = cursor ? Number(cursor) : 0;
        const items = Array.from({ length: Math.min(100, total - start) }, (_, i): ItemDraft => ({
          native_id: String(start + i),
          type: 'text',
          text: `post ${start + i} `.padEnd(200, 'x'),
          media: [],
          ts: 1_700_000_000 + start + i,
          stats: { likes: start + i },
        }) as ItemDraft);
        return { items, next_cursor: start + 100 < total ? String(start + 100) : undefined };
      },
    },
  },
};

/** RFC 4180 rows (quoted fields may hold commas, doubled quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

/** GET with the raw response's 'data' events counted: a streamed body arrives in several. */
function getCounted(s: Running, path: string, token: string): Promise<{ status: number; chunks: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(s.base + path, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      let chunks = 0;
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => (chunks++, parts.push(b)));
      res.on('end', () => resolve({ status: res.statusCode!, chunks, body: Buffer.concat(parts).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /v1/tasks/{id}/export', () => {
  let fake: FakePlatform;
  let s: Running;
  let token: string;
  const submit = async (source: string, action: string, params: Record<string, unknown>, t = token) => {
    const r = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source, action, params }, token: t });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.task_id as string;
  };

  beforeAll(async () => {
    fake = await startFakePlatform();
    s = await startService({ adapters: [exp, fake.adapter] });
    token = await s.token(['read', 'write']);
  });
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  it('jsonl of shape A: one item a line, as the task result holds them', async () => {
    const id = await submit('exp', 'posts', { query: 'tricky' });
    const r = await s.api(`/v1/tasks/${id}/export`, { token });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="exp-posts-${id}.jsonl"`);
    const lines = r.text.trimEnd().split('\n').map((l) => JSON.parse(l));
    const task = (await s.api(`/v1/tasks/${id}`, { token })).body;
    expect(lines).toEqual(task.result.items);
  });

  it('csv of shape A: stable columns, formulas neutralised, quoting of commas, quotes and newlines, long ids exact', async () => {
    const id = await submit('exp', 'posts', { query: 'tricky' });
    const r = await s.api(`/v1/tasks/${id}/export?format=csv`, { token });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="exp-posts-${id}.csv"`);
    const [head, ...rows] = parseCsv(r.text);
    expect(head).toEqual(['id', 'type', 'provider', 'created_at', 'author', 'author_handle', 'author_id', 'title', 'text', 'url', 'likes', 'comments', 'shares', 'views', 'duration_s', 'width', 'height', 'thumb', 'media_url', 'preview_url', 'provenance']);
    const col = (name: string) => rows.map((row) => row[head.indexOf(name)]);
    expect(col('text')).toEqual(["'=HYPERLINK(\"http://evil.test\",\"click\")", "'+1+2", "'-3", "'@SUM(A1)", "'\tindent", 'a, b and "c"', 'two\nlines', 'plain']);
    expect(col('author')).toEqual(col('text'));
    // Ids keep every digit, in quotes; never 7.31E+18.
    expect(col('id')[0]).toBe(`exp:${LONG_ID}`);
    expect(new Set(col('author_id'))).toEqual(new Set([LONG_ID]));
    expect(r.text).toContain(`,"${LONG_ID}",`);
    expect(col('created_at')[0]).toBe('2023-11-14T22:13:20.000Z');
    expect(col('likes')).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
    // Every record ends in CRLF; a newline inside a quoted cell stays a bare LF.
    expect(r.text.endsWith('\r\n')).toBe(true);
  });

  it('jsonl and csv of shape B (comments)', async () => {
    const id = await submit('fake', 'comments', { query: 'p1', limit: 10 });
    const jsonl = await s.api(`/v1/tasks/${id}/export`, { token });
    expect(jsonl.text.trimEnd().split('\n').map((l) => JSON.parse(l).cid)).toEqual(['c1', 'c2', 'c3', 'c4']);
    const csv = parseCsv((await s.api(`/v1/tasks/${id}/export?format=csv`, { token })).text);
    expect(csv[0]).toEqual(['cid', 'parent_id', 'created_at', 'user_name', 'handle', 'user_id', 'likes', 'reply_total', 'text', 'url']);
    expect(csv.slice(1).map((r) => [r[0], r[1], r[8]])).toEqual([['c1', '', 'first'], ['c2', 'c1', 'reply'], ['c3', '', 'second'], ['c4', '', 'third']]);
  });

  it('streams a large result in several chunks, each row whole', async () => {
    const id = await submit('exp', 'posts', { query: 'big-3000', max_items: 3000 });
    for (const format of ['jsonl', 'csv']) {
      const r = await getCounted(s, `/v1/tasks/${id}/export?format=${format}`, token);
      expect(r.status).toBe(200);
      expect(r.headers['transfer-encoding']).toBe('chunked');
      expect(r.chunks).toBeGreaterThan(3);
      const lines = r.body.split(format === 'csv' ? '\r\n' : '\n').filter(Boolean);
      expect(lines).toHaveLength(format === 'csv' ? 3001 : 3000);
      if (format === 'jsonl') expect(JSON.parse(lines[2999]).id).toBe('exp:2999');
    }
  });

  it('refuses a bad format, unknown params, a foreign or unknown task, an unfinished task and a write result', async () => {
    const id = await submit('exp', 'posts', { query: 'tricky' });
    for (const q of ['format=xlsx', 'format=csv&format=jsonl', 'fmt=csv']) {
      const r = await s.api(`/v1/tasks/${id}/export?${q}`, { token });
      expect(r.status, q).toBe(400);
      expect(r.body).toMatchObject({ ok: false, error: { code: 'invalid_request', retryable: false } });
    }
    const other = await s.token(['read']);
    expect((await s.api(`/v1/tasks/${id}/export`, { token: other })).body).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await s.api(`/v1/tasks/${id}/export`, { token: other })).status).toBe(404);
    expect((await s.api('/v1/tasks/t_nope/export', { token })).status).toBe(404);
    expect((await s.api(`/v1/tasks/${id}/export`, { token: null })).status).toBe(401);

    const slow = (await s.api('/v1/tasks', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'slow' } }, token })).body.task_id as string;
    await until(() => fake.hanging > 0 || undefined);
    const running = await s.api(`/v1/tasks/${slow}/export?format=csv`, { token });
    expect(running.status).toBe(409);
    expect(running.body.error).toMatchObject({ code: 'invalid_request' });
    expect(running.body.error.message).toMatch(/the task is running: only a succeeded task can be exported/);
    await s.api(`/v1/tasks/${slow}/cancel`, { method: 'POST', token });
    expect((await s.api(`/v1/tasks/${slow}/export`, { token })).body.error.message).toMatch(/the task is cancelled/);

    const write = await submit('fake', 'post.create', { text: 'hi', dry_run: true });
    const w = await s.api(`/v1/tasks/${write}/export`, { token });
    expect(w.status).toBe(400);
    expect(w.body.error.message).toMatch(/not a table/);
  });
});
