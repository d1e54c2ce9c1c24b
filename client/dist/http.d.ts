export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
export interface Answer<T> {
    status: number;
    body: T;
    headers: Headers;
}
/** One place that adds the token, sends JSON, reads JSON and turns every failure into a CrawlerError. */
export declare class Http {
    private readonly token;
    private readonly fetchFn;
    readonly base: string;
    constructor(base: string, token: string | undefined, fetchFn: FetchLike);
    url(path: string): string;
    headers(extra?: Record<string, string>): Record<string, string>;
    /** Sends the request; the raw Response is returned whatever its status (network failures throw). */
    send(path: string, init?: {
        method?: string;
        json?: unknown;
        headers?: Record<string, string>;
        signal?: AbortSignal;
    }): Promise<Response>;
    /** JSON request; statuses listed in `accept` are returned, any other non-2xx throws a CrawlerError. */
    json<T>(path: string, init?: {
        method?: string;
        json?: unknown;
        signal?: AbortSignal;
        accept?: number[];
    }): Promise<Answer<T>>;
}
