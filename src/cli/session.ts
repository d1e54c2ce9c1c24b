import type { CrawlerClient } from '../../client/dist/index.js';
import { EXIT } from './exit.js';
import type { Out } from './render.js';

/**
 * What a caller command shares: stdout for results, stderr for the rest, and Ctrl-C: the first one aborts
 * the run's signal (the command cancels its task and prints what it has), a second one exits at once.
 */
export class Session {
  readonly interrupt = new AbortController();
  readonly out: Out = {
    write: (text) => void process.stdout.write(text),
    columns: process.stdout.isTTY ? process.stdout.columns || 120 : 120,
  };
  private readonly onSigint = () => {
    if (this.interrupt.signal.aborted) process.exit(EXIT.interrupted);
    this.note(this.interruptNote);
    this.interrupt.abort(new DOMException('interrupted (Ctrl-C)', 'AbortError'));
  };

  constructor(
    readonly client: CrawlerClient,
    private readonly interruptNote = 'interrupted: stopping…',
  ) {
    process.on('SIGINT', this.onSigint);
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
