/** setTimeout as a promise that rejects with the signal's reason once it aborts. */
export declare function sleep(ms: number, signal?: AbortSignal): Promise<void>;
