/** One dispatched server-sent event (the WHATWG event-stream format). */
export interface SseMessage {
    event: string;
    data: string;
    /** The last `id:` seen so far on this stream (the spec's "last event ID" buffer). */
    id: string | undefined;
}
/** Feeds text chunks in, hands complete events and `retry:` hints out. Comments (`: ping`) are dropped. */
export declare class SseParser {
    private readonly onMessage;
    private readonly onRetry;
    private buffer;
    private event;
    private data;
    private lastId;
    /** A CR ended the previous chunk: an LF starting the next one belongs to it. */
    private pendingCr;
    constructor(onMessage: (m: SseMessage) => void, onRetry?: (ms: number) => void);
    push(chunk: string): void;
    private line;
    private dispatch;
}
