import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { isReplayMiss } from '../../src/crawl/errors.js';
import { loadRecordings } from '../../src/crawl/replay/har.js';
import { ReplayDispatcher } from '../../src/crawl/replay/dispatcher.js';
import { parseRange } from '../../src/crawl/replay/range.js';

function har(entries: Array<{ url: string; method?: string; status?: number; text: string; base64?: boolean; mime?: string; post?: string }>): string {
  const dir = mkdtempSync(join(tmpdir(), 'har-'));
  const file = join(dir, 'test.har');
  writeFileSync(
    file,
    JSON.stringify({
      log: {
        version: '1.2',
        entries: entries.map((e) => ({
          comment: 'hand-made test recording',
          request: { method: e.method ?? 'GET', url: e.url, headers: [], ...(e.post ? { postData: { mimeType: 'application/json', text: e.post } } : {}) },
          response: {
            status: e.status ?? 200,
            statusText: 'OK',
            headers: [{ name: 'Content-Type', value: e.mime ?? 'application/json' }, { name: 'Content-Encoding', value: 'gzip' }],
            content: { mimeType: e.mime ?? 'application/json', text: e.text, ...(e.base64 ? { encoding: 'base64' } : {}) },
          },
        })),
      },
    }),
  );
  return file;
}

const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
const file = har([
  { url: 'https://api.example.com/list?uid=1&page=1', text: '{"page":1}' },
  { url: 'https://api.example.com/list?uid=1&page=2', text: '{"page":2}' },
  { url: 'https://api.example.com/list?uid=2', text: '{"uid":2}' },
  { url: 'https://api.example.com/show?id=42&extra=1', text: '{"id":42}' },
  { url: 'https://cdn.example.com/v.mp4?sig=abc', text: bytes.toString('base64'), base64: true, mime: 'video/mp4' },
  { url: 'https://api.example.com/graphql', method: 'POST', post: '{"variables":{"id":"7"},"queryId":"x"}', text: '{"gql":7}' },
]);

function replay(rules = {}) {
  return new ReplayDispatcher({ recordings: loadRecordings([file]), rulesFor: () => rules });
}

async function get(d: ReplayDispatcher, url: string, init: { method?: 'GET' | 'HEAD' | 'POST'; headers?: Record<string, string>; body?: string } = {}) {
  const res = await request(url, { dispatcher: d, method: init.method ?? 'GET', headers: init.headers, body: init.body });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

describe('replay dispatcher', () => {
  it('answers by method, host, path and params, picking the right page', async () => {
    const d = replay();
    expect(JSON.parse((await get(d, 'https://api.example.com/list?uid=1&page=2')).body.toString())).toEqual({ page: 2 });
    expect(JSON.parse((await get(d, 'https://api.example.com/list?page=1&uid=1')).body.toString())).toEqual({ page: 1 });
  });

  it('never serves another cursor or id, and says which request missed', async () => {
    const d = replay();
    await expect(get(d, 'https://api.example.com/list?uid=1&page=3')).rejects.toSatisfy((e) => isReplayMiss(e) && /page=3/.test((e as Error).message));
    await expect(get(d, 'https://api.example.com/list?uid=3')).rejects.toSatisfy(isReplayMiss);
    // uid=2 was recorded without a page: a request for page 2 of uid 2 is a different page.
    await expect(get(d, 'https://api.example.com/list?uid=2&page=2')).rejects.toSatisfy(isReplayMiss);
    await expect(get(d, 'https://other.example.com/list?uid=1&page=1')).rejects.toSatisfy(isReplayMiss);
    expect(d.misses).toHaveLength(4);
  });

  it('treats an absent paging param as the first page, and only the first', async () => {
    const d = replay();
    expect(JSON.parse((await get(d, 'https://api.example.com/list?uid=1')).body.toString())).toEqual({ page: 1 });
    expect(JSON.parse((await get(d, 'https://api.example.com/list?uid=2&page=1')).body.toString())).toEqual({ uid: 2 });
    expect(JSON.parse((await get(d, 'https://api.example.com/list?uid=2&page=')).body.toString())).toEqual({ uid: 2 });
    await expect(get(d, 'https://api.example.com/list?uid=2&page=2')).rejects.toSatisfy(isReplayMiss);
  });

  it('tolerates extra and missing non-identifying params and ignores volatile ones', async () => {
    const d = replay({ volatile: ['sig2'] });
    const r = await get(d, 'https://api.example.com/show?id=42&lang=en&sig2=zzz&_=123');
    expect(JSON.parse(r.body.toString())).toEqual({ id: 42 });
  });

  it('matches POST bodies on their identifying fields', async () => {
    const d = replay();
    const ok = await get(d, 'https://api.example.com/graphql', { method: 'POST', body: '{"variables":{"id":"7"},"queryId":"y"}', headers: { 'content-type': 'application/json' } });
    expect(JSON.parse(ok.body.toString())).toEqual({ gql: 7 });
    await expect(
      get(d, 'https://api.example.com/graphql', { method: 'POST', body: '{"variables":{"id":"8"}}', headers: { 'content-type': 'application/json' } }),
    ).rejects.toSatisfy(isReplayMiss);
  });

  it('serves base64 bodies as bytes, with Range slices and HEAD as a CDN would', async () => {
    const d = replay();
    const full = await get(d, 'https://cdn.example.com/v.mp4?sig=abc');
    expect(full.status).toBe(200);
    expect(full.body.equals(bytes)).toBe(true);
    expect(full.headers['content-length']).toBe('1000');
    expect(full.headers['content-encoding']).toBeUndefined();
    const part = await get(d, 'https://cdn.example.com/v.mp4?sig=abc', { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 10-19/1000');
    expect(part.body.equals(bytes.subarray(10, 20))).toBe(true);
    const tail = await get(d, 'https://cdn.example.com/v.mp4?sig=abc', { headers: { range: 'bytes=-5' } });
    expect(tail.body.equals(bytes.subarray(995))).toBe(true);
    const bad = await get(d, 'https://cdn.example.com/v.mp4?sig=abc', { headers: { range: 'bytes=5000-' } });
    expect(bad.status).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */1000');
    const head = await get(d, 'https://cdn.example.com/v.mp4?sig=abc', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('1000');
    expect(head.body.length).toBe(0);
  });

  it('parses ranges per RFC 9110', () => {
    expect(parseRange('bytes=0-', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=3-100', 10)).toEqual({ start: 3, end: 9 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-1,3-4', 10)).toBeUndefined();
    expect(parseRange('items=0-1', 10)).toBeUndefined();
  });
  it('leaves out entries that cannot be served (data: URLs, aborted requests), naming each, and loads the rest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-odd-'));
    const path = join(dir, 'browser-export.har');
    const entry = (url: unknown, status: unknown, extra: Record<string, unknown> = {}) => ({ request: { method: 'GET', url, headers: [] }, response: { status, headers: [{ name: 'X-N', value: 7 }], content: { mimeType: 'application/json', text: '{}' } }, ...extra });
    writeFileSync(path, JSON.stringify({ log: { entries: [
      entry('data:image/png;base64,AAAA', 200),
      entry('https://api.example.com/ok?id=1', 200),
      entry('https://api.example.com/aborted?id=1', 0),
      entry('not a url', 200),
      { response: { status: 200 } },
    ] } }));
    const skipped: string[] = [];
    const recs = loadRecordings([dir], (why) => skipped.push(why));
    expect(recs.map((r) => r.url.pathname)).toEqual(['/ok']);
    expect(recs[0].headers).toContainEqual(['x-n', '7']);
    expect(skipped).toHaveLength(4);
    expect(skipped[0]).toMatch(/browser-export\.har#0: not an http\(s\) exchange/);
    expect(skipped[1]).toMatch(/#2: no answer recorded \(status 0\)/);
    expect(skipped[2]).toMatch(/#3: unparsable URL/);
    expect(skipped[3]).toMatch(/#4: no request method and URL/);
    writeFileSync(join(dir, 'broken.har'), '{"log":');
    expect(() => loadRecordings([dir])).toThrow(/broken\.har is not valid JSON/);
    rmSync(dir, { recursive: true, force: true });
  });
});
