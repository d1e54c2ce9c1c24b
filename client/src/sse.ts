/** One dispatched server-sent event (the WHATWG event-stream format). */
export interface SseMessage {
  event: string;
  data: string;
  /** The last `id:` seen so far on this stream (the spec's "last event ID" buffer). */
  id: string | undefined;
}

/** Feeds text chunks in, hands complete events and `retry:` hints out. Comments (`: ping`) are dropped. */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private lastId: string | undefined;
  /** A CR ended the previous chunk: an LF starting the next one belongs to it. */
  private pendingCr = false;

  constructor(
    private readonly onMessage: (m: SseMessage) => void,
    private readonly onRetry: (ms: number) => void = () => {},
  ) {}

  push(chunk: string): void {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      this.line(this.buffer.slice(start, i));
      if (c === '\r') {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[i + 1] === '\n') i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.event = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.onRetry(Number(value));
        break;
    }
  }

  private dispatch(): void {
    if (this.data.length) this.onMessage({ event: this.event || 'message', data: this.data.join('\n'), id: this.lastId });
    this.event = '';
    this.data = [];
  }
}
