import { closeSync, openSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

/** Who sent a request: the account and, for a task's crawl, the task and its attempt. */
export interface RequestOrigin {
  platform: string;
  account: string;
  task?: string;
  attempt?: number;
}

/** Called by the HTTP client as each request goes out (after pacing); the function it returns, when it ends. */
export type RequestTrace = (method: string, url: URL, slot?: number) => (outcome: { status?: number; error?: string }) => void;

/**
 * CRAWLER_REQUEST_LOG: one JSON line per outbound platform request as it is sent, and one when it ends,
 * appended to a file. Lines are written synchronously with O_APPEND, so several processes can share one
 * file, and a process killed mid-request has already logged that the request went out.
 */
export class RequestLog {
  private fd: number | undefined;
  private readonly proc = `${process.pid}-${randomBytes(3).toString('hex')}`;
  private seq = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'a');
  }

  /** A trace for the requests of one crawl; each request gets an id that its send and done lines share. */
  trace(origin: RequestOrigin): RequestTrace {
    return (method, url, slot) => {
      const id = `${this.proc}-${++this.seq}`;
      const line = { id, ...origin, method, host: url.host, path: url.pathname };
      // slot: when the pacer let it go (the fleet's pacer: Redis's clock); t: when this process sent it.
      this.write({ phase: 'send', t: Date.now(), slot, ...line });
      return (outcome) => this.write({ phase: 'done', t: Date.now(), ...line, ...outcome });
    };
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private write(entry: object): void {
    if (this.fd === undefined) return;
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
  }
}
