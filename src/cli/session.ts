import type { CrawlerClient } from '../../client/dist/index.js';
import { EXIT } from './exit.js';
import type { Out } from './render.js';

/**
 * What a caller command shares: stdout for results, stderr for the rest, and, for commands that follow a
 * task, Ctrl-C: the first one aborts the run's signal (the command cancels or leaves its task and prints
 * what it has), a second one exits at once. Other commands keep Ctrl-C's default (the process ends).
 */
export class Session {
  readonly interrupt = new AbortController();
  readonly out: Out = {
    write: (text) => void process.stdout.write(text),
    columns: process.stdout.isTTY ? process.stdout.columns || 120 : 120,
  };

  constructor(readonly client: CrawlerClient) {}

  /** Ctrl-C aborts `interrupt` (saying `note` on stderr) instead of ending the process. */
  catchInterrupt(note: string): this {
    process.on('SIGINT', () => {
      if (this.interrupt.signal.aborted) process.exit(EXIT.interrupted);
      this.note(note);
      this.interrupt.abort(new DOMException('interrupted (Ctrl-C)', 'AbortError'));
    });
    return this;
  }

  /** The run's signal: Ctrl-C, and the --wait deadline when there is one (a TimeoutError: the task goes on). */
  signal(waitMs?: number): AbortSignal {
    return waitMs === undefined ? this.interrupt.signal : AbortSignal.any([this.interrupt.signal, AbortSignal.timeout(waitMs)]);
  }

  get interrupted(): boolean {
    return this.interrupt.signal.aborted;
  }

  note(line: string): void {
    process.stderr.write(`${line}\n`);
  }
}
