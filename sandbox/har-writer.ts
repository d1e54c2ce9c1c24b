// The one HAR 1.2 writer of the hand-made sandbox generators (sandbox/<platform>/generate.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Header = { name: string; value: string };

export interface HarExchange {
  url: string;
  method?: string;
  /** The request's headers, as the platform's client sends them. */
  requestHeaders?: Header[];
  /** A request body. */
  post?: { mimeType: string; text: string };
  status?: number;
  statusText?: string;
  /** Response headers after Content-Type (and the writer's fixed ones). */
  headers?: Header[];
  mime: string;
  body: string;
  comment: string;
}

export interface HarFile {
  dir: string;
  file: string;
  /** "hand-made (<platform> adapter sandbox)". */
  creator: string;
  started: string;
  /** Headers every response carries after Content-Type (a fixed Date, say). */
  responseHeaders?: Header[];
  entries: HarExchange[];
}

export function writeHar(h: HarFile): void {
  const doc = {
    log: {
      version: '1.2',
      creator: { name: h.creator, version: '1' },
      entries: h.entries.map((e) => ({
        startedDateTime: h.started,
        time: 0,
        request: {
          method: e.method ?? 'GET',
          url: e.url,
          httpVersion: 'HTTP/1.1',
          headers: e.requestHeaders ?? [],
          queryString: [...new URL(e.url).searchParams].map(([name, value]) => ({ name, value })),
          ...(e.post ? { postData: e.post } : {}),
          cookies: [],
          headersSize: -1,
          bodySize: e.post ? Buffer.byteLength(e.post.text) : 0,
        },
        response: {
          status: e.status ?? 200,
          statusText: e.statusText ?? 'OK',
          httpVersion: 'HTTP/1.1',
          headers: [{ name: 'Content-Type', value: e.mime }, ...(h.responseHeaders ?? []), ...(e.headers ?? [])],
          cookies: [],
          content: { size: Buffer.byteLength(e.body), mimeType: e.mime, text: e.body },
          redirectURL: (e.headers ?? []).find((x) => x.name.toLowerCase() === 'location')?.value ?? '',
          headersSize: -1,
          bodySize: -1,
        },
        cache: {},
        timings: { send: 0, wait: 0, receive: 0 },
        comment: `hand-made sandbox recording: ${e.comment}`,
      })),
    },
  };
  writeFileSync(join(h.dir, h.file), `${JSON.stringify(doc, null, 1)}\n`);
}
