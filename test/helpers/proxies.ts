import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';

/** A loopback proxy a test runs: it records every request that went through it (method, absolute URL). */
export interface TestProxy {
  url: string;
  port: number;
  /** `GET http://host:port/path?query`, one per request that passed through (tunnelled ones too). */
  seen: string[];
  /** Connections refused for bad or missing credentials. */
  refused: number;
  close(): Promise<void>;
}

/** Request lines in a plain-HTTP byte stream (a tunnel carrying http://): each request that passed through. */
function requestLines(host: string, onLine: (line: string) => void) {
  let buf = '';
  return (chunk: Buffer) => {
    buf += chunk.toString('latin1');
    const re = /(GET|POST|HEAD|PUT|PATCH|DELETE) (\S+) HTTP\/1\.1\r\n/g;
    let m: RegExpExecArray | null;
    let last = 0;
    while ((m = re.exec(buf))) {
      onLine(`${m[1]} http://${host}${m[2]}`);
      last = re.lastIndex;
    }
    buf = buf.slice(Math.max(last, buf.length - 4096));
  };
}

function track(server: { on(e: 'connection', f: (s: Socket) => void): unknown }): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return sockets;
}

/** An HTTP proxy: absolute-form requests and CONNECT tunnels; with auth, anything else gets 407. */
/** Listens on a loopback port and hands out the proxy's URL, what it saw, and a close that drops open tunnels. */
async function listen(server: TcpServer, state: { seen: string[]; refused: number }, urlOf: (port: number) => string): Promise<TestProxy> {
  const sockets = track(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: urlOf(port),
    port,
    get seen() {
      return state.seen;
    },
    get refused() {
      return state.refused;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export async function startHttpProxy(auth?: { user: string; pass: string }, hosts: Record<string, string> = {}): Promise<TestProxy> {
  const state = { seen: [] as string[], refused: 0 };
  const expected = auth ? `Basic ${Buffer.from(`${auth.user}:${auth.pass}`).toString('base64')}` : undefined;
  const server: Server = createHttpServer((req, res) => {
    if (expected && req.headers['proxy-authorization'] !== expected) {
      state.refused++;
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' });
      return res.end();
    }
    const target = new URL(req.url ?? '/');
    state.seen.push(`${req.method} ${target.toString()}`);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const up = httpRequest({ host: hosts[target.hostname] ?? target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  server.on('connect', (req, client: Socket, head) => {
    client.on('error', () => {});
    if (expected && req.headers['proxy-authorization'] !== expected) {
      state.refused++;
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const up = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      client.on('data', requestLines(`${host}:${port}`, (l) => state.seen.push(l)));
      client.pipe(up).pipe(client);
    });
    up.on('error', () => client.destroy());
  });
  return listen(server, state, (port) => `http://${auth ? `${auth.user}:${auth.pass}@` : ''}127.0.0.1:${port}`);
}

/** A SOCKS5 server (RFC 1928) that insists on username/password auth (RFC 1929); CONNECT only. */
export async function startSocks5Proxy(auth: { user: string; pass: string }): Promise<TestProxy> {
  const state = { seen: [] as string[], refused: 0 };
  const server = createTcpServer((client) => {
    client.on('error', () => {});
    let buf = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' | 'open' = 'greeting';
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (stage === 'greeting') {
          if (buf.length < 2 || buf.length < 2 + buf[1]) return;
          const methods = buf.subarray(2, 2 + buf[1]);
          buf = buf.subarray(2 + buf[1]);
          if (!methods.includes(0x02)) {
            state.refused++;
            client.end(Buffer.from([0x05, 0xff]));
            return;
          }
          client.write(Buffer.from([0x05, 0x02]));
          stage = 'auth';
        } else if (stage === 'auth') {
          if (buf.length < 2) return;
          const ulen = buf[1];
          if (buf.length < 3 + ulen) return;
          const plen = buf[2 + ulen];
          if (buf.length < 3 + ulen + plen) return;
          const user = buf.subarray(2, 2 + ulen).toString();
          const pass = buf.subarray(3 + ulen, 3 + ulen + plen).toString();
          buf = buf.subarray(3 + ulen + plen);
          if (user !== auth.user || pass !== auth.pass) {
            state.refused++;
            client.end(Buffer.from([0x01, 0x01]));
            return;
          }
          client.write(Buffer.from([0x01, 0x00]));
          stage = 'request';
        } else if (stage === 'request') {
          if (buf.length < 5) return;
          const atyp = buf[3];
          const len = atyp === 0x01 ? 4 : atyp === 0x04 ? 16 : 1 + buf[4];
          if (buf.length < 4 + len + 2) return;
          const host = atyp === 0x01 ? [...buf.subarray(4, 8)].join('.') : atyp === 0x03 ? buf.subarray(5, 5 + buf[4]).toString() : '::1';
          const port = buf.readUInt16BE(4 + len);
          const rest = buf.subarray(4 + len + 2);
          stage = 'open';
          client.off('data', onData);
          client.pause();
          const up = connect(port, host, () => {
            client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 127, 0, 0, 1, 0, 0]));
            const count = requestLines(`${host}:${port}`, (l) => state.seen.push(l));
            if (rest.length) {
              count(rest);
              up.write(rest);
            }
            client.on('data', count);
            client.pipe(up).pipe(client);
            client.resume();
          });
          up.on('error', () => {
            client.end(Buffer.from([0x05, 0x05, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
          });
          return;
        } else return;
      }
    };
    client.on('data', onData);
  });
  return listen(server, state, (port) => `socks5://${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@127.0.0.1:${port}`);
}

/** A port nothing listens on (a dead proxy). */
export async function deadPort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
