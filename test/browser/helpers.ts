import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateSync } from 'node:zlib';
import { defaultChromiumPath } from '../../src/accounts/browser/pool.js';

/** CI installs Debian's chromium; without it these tests fail (never skip) with a message naming it. */
export function requireChromium(): void {
  const path = defaultChromiumPath();
  if (!existsSync(path)) {
    throw new Error(`Chromium not found at ${path}: the browser tests drive a real headless Chromium (apt-get install chromium, or set CHROMIUM_PATH)`);
  }
}

export interface LocalSite {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Requests seen, as "METHOD /path". */
  hits: string[];
  count(path: string): number;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A loopback HTTP server; routes are matched on the path without the query. */
export async function serveLocal(routes: Record<string, Handler>): Promise<LocalSite> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(`${req.method} ${path}`);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const route = routes[path];
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      route(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    count: (path) => hits.filter((h) => h.endsWith(` ${path}`)).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const html = (res: ServerResponse, body: string, headers: Record<string, string | string[]> = {}) =>
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Decodes a PNG far enough to prove it is one: signature, IHDR, and IDAT inflating to the size the header promises. */
export function decodePng(buf: Buffer): { width: number; height: number } {
  if (!buf.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG: bad signature');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('ascii', offset + 4, offset + 8);
    const data = buf.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8) throw new Error(`PNG: bit depth ${data[8]} not handled`);
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[data[9]] ?? 0;
      if (!channels) throw new Error(`PNG: colour type ${data[9]} not handled`);
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  if (raw.length !== height * (1 + width * channels)) throw new Error(`PNG: ${raw.length} bytes of pixels for ${width}x${height}`);
  return { width, height };
}

export async function waitFor(cond: () => boolean | Promise<boolean>, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const cookieSet = (header: string) => new Set(header.split(';').map((p) => p.trim()).filter(Boolean));

/** A loopback origin nothing listens on: a port just released by the OS. */
export async function refusedOrigin(): Promise<string> {
  const site = await serveLocal({});
  await site.close();
  return site.origin;
}
