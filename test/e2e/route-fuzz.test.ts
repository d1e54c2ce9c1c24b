import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { startService } from '../helpers/service.js';

/** A fixed-seed generator (mulberry32), so a failure replays the same requests. */
let seed = 20261124;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const rnd = (n: number) => Math.floor(random() * n);
const pick = <T,>(a: T[]) => a[rnd(a.length)];
/**
 * Hostile input on every public route, in the demo's replay mode: 3000 requests mixing methods, paths,
 * broken encodings, tokens, content types, ranges and bodies. None may answer a 5xx of its own (a 502
 * from the media proxy naming an unrecorded origin is the honest answer), or a non-2xx without the
 * spec's error body, or hang.
 */
it('answers 3000 hostile requests on every route with spec errors, never a 5xx or a hang', async () => {
  const s = await startService({ config: { replay: [resolve('sandbox')] } });
  const admin = await s.token(['admin']);
  const read = await s.token(['read']);
  const paths = ['/v1/tasks', '/v1/tasks/t_x', '/v1/tasks/t_0mwvbgettc894bb8af661bee4/stream', '/v1/tasks/x/cancel', '/v1/tasks/x/retry', '/v1/task-sources', '/v1/capabilities', '/v1/categories', '/v1/categories?source=weibo', '/v1/categories?source=%00', '/v1/profiles', '/v1/profiles/weibo/x', '/v1/profiles/weibo/x/check', '/v1/profiles/weibo/x/login', '/v1/logins/x', '/v1/logins/x/screenshot', '/v1/logins/x/input', '/v1/tokens', '/v1/tokens/x', '/v1/media?u=x', '/v1/media?u=https%3A%2F%2Fwx4.sinaimg.cn%2Fa.jpg&kind=video&platform=weibo&exp=1&sig=a', '/v1/preview?platform=weibo&id=1', '/v1/preview?platform=weibo', '/v1/preview/warm', '/v1/health', '/metrics', '/docs/agent.txt', '/v1/openapi.json', '/docs', '/docs/init.js', '/docs/swagger-ui.css', '/v1/tasks?status=x', '/v1/tasks?limit=-1', '/v1/tasks?cursor=%ff', '/mcp', '/mcp?sources=weibo', '/v1/tasks/batch', '/v1/batches/x', '/v1/batches/b_x/retry', '/v1/tasks/x/export?format=csv', '/v1/tasks/x/export?format=%00', '/v1/tasks/x/webhooks', '/v1/webhooks/secret', '/v1/watches', '/v1/watches/w_x', '/v1/watches/x/export?format=jsonl', '/v1/files/x', '/v1/files/x?exp=1&sig=a', '/v1/files/x/pin', '/v1/files/x/meta'];
  const bodies = ['', '{', '[]', 'null', '{"source":1}', '{"source":"weibo","action":"search","params":{"query":""}}', '{"source":"weibo","action":"search","params":{"query":"x","limit":"a"}}', '{"source":"weibo","action":"posts","params":{"query":"x","cursor":"k1.x.y"}}', '{"items":[{"platform":"weibo","id":"1"}]}', '{"items":"x"}', '{"platform":"weibo","name":"a","cookies":5}', '{"scopes":["read"]}', '{"scopes":"nope"}', '{"action":"click","x":"1"}', JSON.stringify({ source: 'weibo', action: 'search', params: { query: 'a'.repeat(5000) } }), '{"source":"weibo","action":"search","params":{"query":"x","profile":"../../etc"}}', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"weibo_search","arguments":{"query":""}}}', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', '{"tasks":[{"source":"weibo","action":"search","params":{"query":"x"}},5,{"source":"weibo","action":"post.create"}]}', '{"tasks":{}}', '{"source":"weibo","action":"posts","params":{"query":"1"},"every_s":"x","callback_url":"http://127.0.0.1/"}', '{"every_s":899,"paused":"no"}', '{"source":"weibo","action":"search","params":{"query":"x","callback_url":"https://10.0.0.1/","since":"tomorrow","replies":"most"}}', '{"platform":"weibo","name":"p","proxy":"ftp://x","pool":"../"}'];
  const bad: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const method = pick(['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS']);
    const path = pick(paths) + (rnd(5) === 0 ? pick(['%', '%zz', '/..', '?a=%E0%A4%A', '/' + 'x'.repeat(300)]) : '');
    const headers: Record<string, string> = {};
    const t = pick([admin, read, '', 'bogus']);
    if (t) headers.authorization = `Bearer ${t}`;
    if (rnd(3)) headers['content-type'] = pick(['application/json', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data']);
    if (rnd(4) === 0) headers.range = pick(['bytes=0-1', 'bytes=5-1', 'bytes=-', 'x']);
    const body = method === 'GET' || method === 'HEAD' ? undefined : pick(bodies);
    try {
      const ac = new AbortController();
      const timer = setTimeout(() => ac.abort(), 5000);
      const r = await fetch(s.base + path, { method, headers, body, signal: ac.signal });
      const text = method === 'HEAD' ? '' : await r.text();
      clearTimeout(timer);
      if (r.status >= 500 && !(r.status === 502 && path.startsWith('/v1/media')) && !(r.status === 503 || r.status === 504)) bad.push(`${method} ${path} ${r.status} ${text.slice(0, 150)}`);
      if (r.status >= 400 && method !== 'HEAD' && text && !text.includes('"ok":false') && !text.includes('preview_unavailable') && !text.includes('needs_confirmation')) bad.push(`BODY ${method} ${path} ${r.status} ${text.slice(0, 150)}`);
    } catch (e) {
      if (!path.includes('/stream')) bad.push(`${method} ${path} threw ${(e as Error).message}`);
    }
  }
  await s.close();
  expect([...new Set(bad.map((b) => b.slice(0, 200)))].slice(0, 20)).toEqual([]);
}, 300000);
