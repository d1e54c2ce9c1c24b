import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';
import { startService, type Running } from '../helpers/service.js';

let fake: FakePlatform;
let s: Running;
let port: number;

beforeAll(async () => {
  fake = await startFakePlatform();
  s = await startService({ adapters: [fake.adapter], config: { corsOrigins: ['https://app.example.com'] } });
  port = Number(new URL(s.base).port);
});
afterAll(async () => {
  await s?.close();
  await fake?.close();
});

/** Sends raw bytes and reads the whole answer until the server closes (or 3 s pass). */
function rawExchange(bytes: string | Buffer, thenWrite?: Buffer): Promise<{ status: number; headers: Record<string, string>; body: any; error?: string }> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let error: string | undefined;
    sock.on('connect', () => {
      sock.write(bytes);
      if (thenWrite) sock.write(thenWrite, () => {});
    });
    sock.on('data', (d) => (data = Buffer.concat([data, d])));
    sock.on('error', (e: NodeJS.ErrnoException) => (error = e.code));
    const done = () => {
      clearTimeout(timer);
      const text = data.toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const lines = head.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let body: any = rest.join('\r\n\r\n');
      try {
        body = JSON.parse(body);
      } catch {
        /* keep text */
      }
      resolve({ status, headers, body, error });
    };
    sock.on('close', done);
    const timer = setTimeout(() => sock.destroy(), 3000);
  });
}

const expectSpecBody = (body: any, code: string) => {
  expect(body).toMatchObject({ ok: false, error: { code, message: expect.any(String), retryable: expect.any(Boolean) } });
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'retryable']);
};

describe('malformed HTTP gets the spec error body', () => {
  const cases: Array<[string, string, number]> = [
    ['an unknown method', 'FOO /v1/health HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['a bad byte in a header name', 'GET /v1/health HTTP/1.1\r\nHost: x\r\nBa d: 1\r\n\r\n', 400],
    ['a control byte in the path', 'GET /v1/he\x01alth HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['obs-fold', 'GET /v1/health HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n folded\r\n\r\n', 400],
    ['Transfer-Encoding with Content-Length', 'POST /v1/tasks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400],
    ['a broken chunked body', 'POST /v1/tasks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n', 400],
    ['a missing Host header', 'GET /v1/health HTTP/1.1\r\n\r\n', 400],
    ['over-long headers', `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['an over-long URL', `GET /v1/health?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
  ];
  for (const [what, bytes, status] of cases) {
    it(`${what} → ${status}`, async () => {
      const r = await rawExchange(bytes);
      expect(r.status).toBe(status);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expectSpecBody(r.body, 'invalid_request');
    });
  }

  it('a wrong method on an existing path is 405 with Allow', async () => {
    const r = await s.api('/v1/health', { method: 'POST' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
    expectSpecBody(r.body, 'invalid_request');
    const t = await s.api('/v1/tasks/t_000000000ffffffffffffffff', { method: 'PUT' });
    expect(t.status).toBe(405);
    expect(t.headers.get('allow')).toBe('GET, HEAD, DELETE');
    const unknown = await s.api('/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expectSpecBody(unknown.body, 'not_found');
    // A trailing slash is another path (the router does not fold it): 404, not a 405 for a route that is not there.
    for (const path of ['/v1/tasks/', '/v1/health/', '/v1/tasks/t_000000000ffffffffffffffff/']) {
      const slash = await s.api(path);
      expect(slash.status, path).toBe(404);
      expectSpecBody(slash.body, 'not_found');
    }
  });

  it('415 and 413 carry the spec body', async () => {
    const r415 = await s.api('/v1/tasks', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(r415.status).toBe(415);
    expectSpecBody(r415.body, 'invalid_request');
    const r413 = await s.api('/v1/tasks', { method: 'POST', body: JSON.stringify({ source: 'fake', action: 'search', params: { query: 'a'.repeat(2 * 1024 * 1024) } }), headers: { 'content-type': 'application/json' } });
    expect(r413.status).toBe(413);
    expectSpecBody(r413.body, 'invalid_request');
  });
});

describe('a body refused early still gets its answer to the client', () => {
  const big = Buffer.alloc(2 * 1024 * 1024, 0x61);
  const head = (auth: string) =>
    `POST /v1/tasks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n${auth}\r\n`;

  it('401 without a token, while a 2 MB upload is still being sent', async () => {
    const r = await rawExchange(head(''), big);
    expect(r.status).toBe(401);
    expectSpecBody(r.body, 'auth_required');
  });

  it('403 for a token without the scope, and 413 with one', async () => {
    const admin = await s.token(['read']);
    const r403 = await rawExchange(`POST /v1/tokens HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n`, big);
    expect(r403.status).toBe(403);
    expectSpecBody(r403.body, 'forbidden_scope');
    const r413 = await rawExchange(head(`Authorization: Bearer ${admin}\r\n`), big);
    expect(r413.status).toBe(413);
    expectSpecBody(r413.body, 'invalid_request');
  });

  it('undici sees the 401 status, not a reset, for a 2 MB body', async () => {
    const res = await fetch(`${s.base}/v1/tasks`, { method: 'POST', body: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(401);
    expectSpecBody(await res.json(), 'auth_required');
  });
});

describe('JSON with __proto__', () => {
  it('is refused with a message that says why, never "malformed JSON", and pollutes nothing', async () => {
    const body = '{"source":"fake","action":"search","params":{"query":"x","__proto__":{"polluted":true}}}';
    const r = await s.api('/v1/tasks', { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expectSpecBody(r.body, 'invalid_request');
    expect(r.body.error.message).toMatch(/__proto__/);
    expect(r.body.error.message).not.toMatch(/malformed/i);
    expect(({} as any).polluted).toBeUndefined();
    const ctor = '{"source":"fake","action":"search","params":{"query":"x","constructor":{"prototype":{"polluted":true}}}}';
    const c = await s.api('/v1/tasks', { method: 'POST', body: ctor, headers: { 'content-type': 'application/json' } });
    expect(c.status).toBe(400);
    expect(c.body.error.message).toMatch(/prototype/);
  });
});

describe('CORS (CRAWLER_CORS_ORIGINS)', () => {
  it('answers a preflight from a listed origin without a token', async () => {
    const r = await s.api('/v1/tasks', { method: 'OPTIONS', token: null, headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' } });
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(r.headers.get('access-control-allow-methods')).toContain('POST');
    expect(r.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(r.headers.get('vary')).toContain('Origin');
  });

  it('adds the headers to answers, errors and streams for a listed origin; none for others', async () => {
    const ok = await s.api('/v1/task-sources', { headers: { origin: 'https://app.example.com' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(ok.headers.get('access-control-expose-headers')).toContain('retry-after');
    const err = await s.api('/v1/task-sources', { token: null, headers: { origin: 'https://app.example.com' } });
    expect(err.status).toBe(401);
    expect(err.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const task = await s.api('/v1/tasks?wait=8000', { method: 'POST', json: { source: 'fake', action: 'search', params: { query: 'cors' } } });
    const ac = new AbortController();
    const stream = await fetch(`${s.base}/v1/tasks/${task.body.task_id}/stream`, { headers: { origin: 'https://app.example.com', authorization: (await s.api('/v1/health')).status ? `Bearer ${await s.token(['admin'])}` : '' }, signal: ac.signal });
    expect(stream.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    ac.abort();
    const other = await s.api('/v1/task-sources', { headers: { origin: 'https://evil.example.net' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await s.api('/v1/tasks', { method: 'OPTIONS', token: null, headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'POST' } });
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.status).toBe(405);
  });
});
