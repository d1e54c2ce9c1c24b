// @ts-check
// Server-sent events read with fetch(): EventSource cannot send the Authorization header, and the
// token stays out of URLs (logs, history). Follows the WHATWG event-stream parsing rules.

/** @typedef {{id?: string, event: string, data: string}} SseEvent */

export class SseParser {
  constructor() {
    this.buffer = '';
    /** @type {string | undefined} */
    this.lastId = undefined;
    /** @type {number | undefined} */
    this.retryMs = undefined;
    this.event = '';
    /** @type {string[]} */
    this.data = [];
  }

  /** Feeds decoded text; returns the events it completed. @param {string} text @returns {SseEvent[]} */
  push(text) {
    this.buffer += text;
    /** @type {SseEvent[]} */
    const out = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const ev = this.line(line);
      if (ev) out.push(ev);
    }
    return out;
  }

  /** @param {string} line @returns {SseEvent | undefined} */
  line(line) {
    if (line === '') {
      if (!this.data.length) {
        this.event = '';
        return undefined;
      }
      const ev = { id: this.lastId, event: this.event || 'message', data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return ev;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }
}

/**
 * Reads one response body to its end, calling onEvent per event.
 * @param {Response} res
 * @param {SseParser} parser
 * @param {(e: SseEvent) => void} onEvent
 */
export async function readEvents(res, parser, onEvent) {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const ev of parser.push(value)) onEvent(ev);
    }
  } finally {
    reader.releaseLock();
  }
}
