import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: Buffer;
  body: any;
  /** The status the receiver answered (undefined: it never answered). */
  answered?: number;
}

/**
 * A webhook receiver on loopback. Each request is answered by `answer(path, n)` (n: how many requests
 * that path had before it): a status, or 'hang' to hold the request open until the client gives up.
 */
export async function startReceiver(answer: (path: string, n: number) => number | 'hang' | { status: number; headers: Record<string, string> } = () => 200) {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? '/';
      const n = received.filter((r) => r.path === path).length;
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = undefined;
      }
      const r: Received = { path, headers: req.headers, raw, body };
      received.push(r);
      for (const w of waiters) w();
      const a = answer(path, n);
      if (a === 'hang') return;
      const { status, headers } = typeof a === 'number' ? { status: a, headers: {} } : a;
      r.answered = status;
      res.writeHead(status, headers);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    /** Resolves once `path` has had n requests (woken by each request, no polling). */
    async count(path: string, n: number, ms = 10_000): Promise<Received[]> {
      const done = () => received.filter((r) => r.path === path).length >= n;
      if (done()) return received.filter((r) => r.path === path);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${path}: ${received.filter((r) => r.path === path).length} of ${n} requests in ${ms} ms`));
        }, ms);
        const check = () => {
          if (!done()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
      return received.filter((r) => r.path === path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
