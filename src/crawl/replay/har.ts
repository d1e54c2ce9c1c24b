import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One recorded exchange, ready to be matched and served. */
export interface Recording {
  method: string;
  url: URL;
  /** Query and body params together (body: form fields, or JSON flattened to dot paths). */
  params: Map<string, string>;
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: Buffer;
  file: string;
  index: number;
}

interface HarEntry {
  request: {
    method: string;
    url: string;
    postData?: { mimeType?: string; text?: string; params?: Array<{ name: string; value?: string }> };
  };
  response: {
    status: number;
    statusText?: string;
    headers?: Array<{ name: string; value: string }>;
    content?: { text?: string; encoding?: string; mimeType?: string };
  };
}

/** Headers that describe the recorded transfer, not the content we serve back. */
const TRANSFER_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Loads every .har under each path (a file, or a directory searched recursively). A file that is not a HAR
 * stops the load (a wrong path must not pass for an empty sandbox); single entries that cannot be served
 * (browser exports hold data: URLs and aborted requests) are left out and reported through onSkip.
 */
export function loadRecordings(paths: readonly string[], onSkip?: (why: string) => void): Recording[] {
  const out: Recording[] = [];
  for (const p of paths) {
    for (const file of harFiles(resolve(p))) out.push(...parseHar(file, readFileSync(file, 'utf8'), onSkip));
  }
  return out;
}

function harFiles(path: string): string[] {
  const st = statSync(path);
  if (st.isFile()) return [path];
  const files: string[] = [];
  for (const name of readdirSync(path).sort()) {
    const full = join(path, name);
    const s = statSync(full);
    if (s.isDirectory()) files.push(...harFiles(full));
    else if (name.endsWith('.har')) files.push(full);
  }
  return files;
}

export function parseHar(file: string, text: string, onSkip?: (why: string) => void): Recording[] {
  let har: { log?: { entries?: HarEntry[] } };
  try {
    har = JSON.parse(text);
  } catch (e) {
    throw new Error(`replay: ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const entries = har.log?.entries;
  if (!Array.isArray(entries)) throw new Error(`replay: ${file} has no log.entries (not a HAR 1.2 file)`);
  const out: Recording[] = [];
  entries.forEach((e, index) => {
    const rec = toRecording(e, file, index);
    if (typeof rec === 'string') onSkip?.(`${file}#${index}: ${rec}`);
    else out.push(rec);
  });
  return out;
}

/** One entry as a servable recording, or why it cannot be one. */
function toRecording(e: HarEntry, file: string, index: number): Recording | string {
  const req = e?.request;
  const res = e?.response;
  if (!req || typeof req.url !== 'string' || typeof req.method !== 'string') return 'no request method and URL';
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return `unparsable URL ${JSON.stringify(req.url.slice(0, 200))}`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `not an http(s) exchange (${url.protocol})`;
  const status = Number(res?.status);
  // Browsers record blocked or aborted requests with status 0: there is no answer to serve.
  if (!Number.isInteger(status) || status < 100 || status > 599) return `no answer recorded (status ${JSON.stringify(res?.status)})`;
  const content = res.content ?? {};
  const text = typeof content.text === 'string' ? content.text : undefined;
  const body = text === undefined ? Buffer.alloc(0) : content.encoding === 'base64' ? Buffer.from(text, 'base64') : Buffer.from(text, 'utf8');
  const headers = (Array.isArray(res.headers) ? res.headers : [])
    .filter((h) => h && typeof h.name === 'string' && h.value !== undefined && h.value !== null && !TRANSFER_HEADERS.has(h.name.toLowerCase()))
    .map((h) => [h.name.toLowerCase(), String(h.value)] as [string, string]);
  if (!headers.some(([n]) => n === 'content-type') && content.mimeType) headers.push(['content-type', content.mimeType]);
  return {
    method: req.method.toUpperCase(),
    url,
    params: requestParams(url, req.postData),
    status,
    statusText: typeof res.statusText === 'string' ? res.statusText : '',
    headers,
    body,
    file,
    index,
  };
}

export function requestParams(url: URL, post?: { mimeType?: string; text?: string; params?: Array<{ name: string; value?: string }> }): Map<string, string> {
  const params = new Map<string, string>();
  const add = (k: string, v: string) => params.set(k, params.has(k) ? `${params.get(k)},${v}` : v);
  url.searchParams.forEach((v, k) => {
    add(k, v);
    // GraphQL GETs carry variables as a JSON object in the query: its ids and cursor count like params.
    if (/^\s*\{/.test(v)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(v);
      } catch {
        return;
      }
      flatten({ [k]: parsed }, '', (fk, fv) => fk !== k && add(fk, fv));
    }
  });
  if (!post) return params;
  if (post.params?.length) {
    for (const p of post.params) add(p.name, p.value ?? '');
    return params;
  }
  addBodyParams(post.text, post.mimeType, add);
  return params;
}

export function addBodyParams(text: string | undefined, mimeType: string | undefined, add: (k: string, v: string) => void): void {
  if (!text) return;
  const trimmed = text.trim();
  if ((mimeType ?? '').includes('json') || trimmed.startsWith('{')) {
    try {
      flatten(JSON.parse(trimmed), '', add);
      return;
    } catch {
      /* not JSON after all */
    }
  }
  if ((mimeType ?? '').includes('x-www-form-urlencoded') || /^[^=&\s]+=[^&]*(&|$)/.test(trimmed)) {
    new URLSearchParams(trimmed).forEach((v, k) => add(k, v));
  }
}

function flatten(value: unknown, prefix: string, add: (k: string, v: string) => void): void {
  if (value === null || typeof value !== 'object') {
    if (prefix) add(prefix, String(value));
    return;
  }
  if (Array.isArray(value)) {
    if (prefix) add(prefix, JSON.stringify(value));
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && /^\s*[{]/.test(v)) {
      // GraphQL clients send variables as a JSON string; identifying ids live inside it.
      try {
        flatten(JSON.parse(v), prefix ? `${prefix}.${k}` : k, add);
        continue;
      } catch {
        /* keep as a plain string */
      }
    }
    flatten(v, prefix ? `${prefix}.${k}` : k, add);
  }
}
