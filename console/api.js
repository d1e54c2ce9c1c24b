// @ts-check
// Every call to the service: the bearer token from the tab's session storage, never in a URL.

export class ApiError extends Error {
  /**
   * @param {number} status HTTP status (0: no answer)
   * @param {string} code the spec's error code, or preview_unavailable, or network
   * @param {string} message
   * @param {unknown} [body]
   */
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * @typedef {{method?: string, json?: unknown, signal?: AbortSignal, headers?: Record<string, string>}} CallInit
 * @typedef {{status: number, body: any, headers: Headers}} Answer
 * @typedef {ReturnType<typeof createApi>} Api
 */

/**
 * @param {() => string | null} token
 * @param {(e: ApiError) => void} onAuthLost a 401: the token was revoked or is wrong
 */
export function createApi(token, onAuthLost) {
  /** @param {string} path @param {CallInit} [init] @returns {Promise<Response>} */
  async function raw(path, init = {}) {
    const headers = new Headers(init.headers);
    const t = token();
    if (t) headers.set('authorization', `Bearer ${t}`);
    let body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    try {
      return await fetch(path, { method: init.method ?? 'GET', headers, body, signal: init.signal, cache: 'no-store' });
    } catch (e) {
      if (init.signal?.aborted) throw e;
      throw new ApiError(0, 'network', `the service did not answer (${e instanceof Error ? e.message : e})`);
    }
  }

  /** Any status, parsed; only 401 is handled here (sign-in again). @param {string} path @param {CallInit} [init] @returns {Promise<Answer>} */
  async function send(path, init = {}) {
    const res = await raw(path, init);
    const text = await res.text();
    let body = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: kept as text */
    }
    if (res.status === 401) {
      const err = toError(res.status, body);
      onAuthLost(err);
      throw err;
    }
    return { status: res.status, body, headers: res.headers };
  }

  /** 2xx bodies; anything else thrown as an ApiError. @param {string} path @param {CallInit} [init] */
  async function call(path, init = {}) {
    const a = await send(path, init);
    if (a.status >= 200 && a.status < 300) return a.body;
    throw toError(a.status, a.body);
  }

  return {
    raw,
    send,
    /** @param {string} path @param {CallInit} [init] */
    get: (path, init) => call(path, { ...init, method: 'GET' }),
    /** @param {string} path @param {unknown} [json] @param {CallInit} [init] */
    post: (path, json, init) => call(path, { ...init, method: 'POST', json: json ?? {} }),
    /** @param {string} path @param {CallInit} [init] */
    del: (path, init) => call(path, { ...init, method: 'DELETE' }),
  };
}

/** The service's error bodies: {ok: false, error: {code, message}}, or the preview's {code, reason}. @param {number} status @param {any} body */
export function toError(status, body) {
  const e = body && typeof body === 'object' ? body : {};
  if (e.error && typeof e.error === 'object') return new ApiError(status, String(e.error.code), String(e.error.message ?? e.error.code), body);
  if (typeof e.code === 'string') return new ApiError(status, e.code, e.reason ? `${e.code}: ${e.reason}` : e.code, body);
  return new ApiError(status, 'upstream_error', `HTTP ${status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`, body);
}
