import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hd60Mp4, mediaFiles } from './media-files.js';

/**
 * A CDN on loopback serving real media: Range, slow and chunked modes, signed URLs that expire
 * (403 after), redirects, and a wrong content type. It counts the connections it accepts.
 */
export interface FakeCdn {
  port: number;
  /** Base URL with the CDN's host name (resolved to 127.0.0.1 by the tests' resolver). */
  base: string;
  connections: number;
  requests: Array<{ method: string; path: string; range?: string; referer?: string; cookie?: string }>;
  /** A signed video URL valid for ttlMs. */
  signed(name: string, ttlMs: number): string;
  close(): Promise<void>;
}

export async function startFakeCdn(host = 'cdn.fake.test', bind = '127.0.0.1'): Promise<FakeCdn> {
  const files = mediaFiles();
  const state = { connections: 0, requests: [] as FakeCdn['requests'] };
  const bodies: Record<string, { type: string; body: Buffer }> = {
    '/img.jpg': { type: 'image/jpeg', body: files.jpg },
    '/v.mp4': { type: 'video/mp4', body: files.mp4 },
    '/long.mp4': { type: 'video/mp4', body: files.longMp4 },
    '/page.html': { type: 'text/html', body: Buffer.from('<script>alert(1)</script>') },
    '/octet.bin': { type: 'application/octet-stream', body: files.mp4 },
    '/unlabelled.jpg': { type: 'application/octet-stream', body: files.jpg },
    '/unlabelled.mp4': { type: 'binary/octet-stream', body: files.mp4 },
  };
  // Made on first request only: a minute of 720p costs the test suite time it does not need.
  Object.defineProperty(bodies, '/hd60.mp4', { enumerable: true, get: () => ({ type: 'video/mp4', body: hd60Mp4() }) });
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    state.requests.push({ method: req.method ?? 'GET', path: u.pathname + u.search, range: req.headers.range, referer: req.headers.referer, cookie: req.headers.cookie });
    const send = (file: { type: string; body: Buffer }, extra: Record<string, string> = {}) => {
      const total = file.body.length;
      const etag = '"v1-' + total + '"';
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag });
        return res.end();
      }
      const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
      const headers: Record<string, string> = { 'content-type': file.type, 'accept-ranges': 'bytes', etag, 'last-modified': 'Tue, 01 Jun 2021 00:00:00 GMT', ...extra };
      if (m) {
        const start = m[1] === '' ? Math.max(0, total - Number(m[2])) : Number(m[1]);
        const end = m[1] === '' || m[2] === '' ? total - 1 : Math.min(Number(m[2]), total - 1);
        if (start >= total) {
          res.writeHead(416, { 'content-range': `bytes */${total}` });
          return res.end();
        }
        res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${total}`, 'content-length': String(end - start + 1) });
        return res.end(req.method === 'HEAD' ? undefined : file.body.subarray(start, end + 1));
      }
      res.writeHead(200, { ...headers, 'content-length': String(total) });
      res.end(req.method === 'HEAD' ? undefined : file.body);
    };
    const p = u.pathname;
    if (bodies[p]) return send(bodies[p]);
    if (p === '/signed/v.mp4' || p === '/signed/img.jpg') {
      const exp = Number(u.searchParams.get('exp'));
      if (!(exp > Date.now())) {
        res.writeHead(403, { 'content-type': 'text/plain' });
        return res.end('expired');
      }
      return send(p.endsWith('.mp4') ? bodies['/v.mp4'] : bodies['/img.jpg']);
    }
    if (p === '/redirect') {
      const hops = Number(u.searchParams.get('hops') ?? '1');
      const to = u.searchParams.get('to') ?? `/img.jpg`;
      res.writeHead(302, { location: hops > 1 ? `/redirect?hops=${hops - 1}&to=${encodeURIComponent(to)}` : to });
      return res.end();
    }
    if (p === '/slow') {
      const ms = Number(u.searchParams.get('ms') ?? '5000');
      const t = setTimeout(() => send(bodies['/img.jpg']), ms);
      res.on('close', () => clearTimeout(t));
      return;
    }
    if (p === '/chunked') {
      // No Content-Length: the proxy must enforce its cap while streaming.
      const mb = Number(u.searchParams.get('mb') ?? '1');
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const chunk = Buffer.alloc(64 * 1024, 7);
      let sent = 0;
      const pump = () => {
        while (sent < mb * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    if (p === '/big') {
      const mb = Number(u.searchParams.get('mb') ?? '50');
      const total = mb * 1024 * 1024;
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(total) });
      const chunk = Buffer.alloc(256 * 1024, 1);
      let sent = 0;
      const pump = () => {
        while (sent < total) {
          const n = Math.min(chunk.length, total - sent);
          sent += n;
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such file');
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((r) => server.listen(0, bind, r));
  const port = (server.address() as AddressInfo).port;
  const base = `http://${host}:${port}`;
  return {
    port,
    base,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    signed: (name, ttlMs) => `${base}/signed/${name}?exp=${Date.now() + ttlMs}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
