import { CrawlerError, isAbort } from './errors.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** One place that adds the token, sends JSON, reads JSON and turns every failure into a CrawlerError. */
export class Http {
  readonly base: string;

  constructor(
    base: string,
    private readonly token: string | undefined,
    private readonly fetchFn: FetchLike,
  ) {
    // A base with a path (behind a reverse proxy) keeps it: '/v1/…' is appended, never resolved from the root.
    this.base = base.replace(/\/+$/, '');
  }

  url(path: string): string {
    return this.base + path;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { accept: 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...extra };
  }

  /** Sends the request; the raw Response is returned whatever its status (network failures throw). */
  async send(path: string, init: { method?: string; json?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
    const headers = this.headers(init.headers);
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    try {
      return await this.fetchFn(this.url(path), { method: init.method ?? 'GET', headers, body, signal: init.signal });
    } catch (e) {
      if (isAbort(e)) throw e;
      throw new CrawlerError({ code: 'network_error', message: `${init.method ?? 'GET'} ${this.url(path)}: ${(e as Error)?.message ?? String(e)}`, retryable: true, cause: e });
    }
  }

  /** JSON request; statuses listed in `accept` are returned, any other non-2xx throws a CrawlerError. */
  async json<T>(path: string, init: { method?: string; json?: unknown; signal?: AbortSignal; accept?: number[] } = {}): Promise<Answer<T>> {
    const res = await this.send(path, init);
    const body = await readBody(res, init.method ?? 'GET', this.url(path));
    if ((res.status >= 200 && res.status < 300) || init.accept?.includes(res.status)) return { status: res.status, body: body as T, headers: res.headers };
    throw CrawlerError.fromResponse(res.status, body, res.headers.get('retry-after'));
  }
}

async function readBody(res: Response, method: string, url: string): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    if (isAbort(e)) throw e;
    throw new CrawlerError({ code: 'network_error', message: `${method} ${url}: the answer broke off (${(e as Error)?.message})`, retryable: true, status: res.status, cause: e });
  }
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    if (res.ok) throw new CrawlerError({ code: 'upstream_error', message: `${method} ${url}: the answer is not JSON`, status: res.status, details: { body: text.slice(0, 200) } });
    return text;
  }
}
