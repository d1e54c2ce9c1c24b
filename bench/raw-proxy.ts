// Child process of bench/media.ts: the least a proxy can do (node:http get piped to the response),
// to show what this machine allows when every byte crosses a third process.
import { createServer, get } from 'node:http';

const cdnPort = Number(process.env.BENCH_CDN_PORT);
const server = createServer((req, res) => {
  get({ host: '127.0.0.1', port: cdnPort, path: req.url }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as { port: number }).port }));
process.on('message', () => server.close(() => process.exit(0)));
