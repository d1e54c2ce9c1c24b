import type { Command } from 'commander';
import { CrawlerError } from '../../client/dist/index.js';

/** Exit codes of `crawler run` and `crawler tasks` (documented in the README). */
export const EXIT = {
  ok: 0,
  /** The task ended without a usable result: a crawl error (blocked, not_found, session_expired…), failed or cancelled. */
  crawl: 1,
  /** Bad command line. */
  usage: 2,
  /** The service refused the request (invalid_request, auth_required, forbidden_scope, unsupported…) or did not answer. */
  service: 3,
  /** --wait ran out: the task goes on on the server. */
  timeout: 4,
  /** A write verb answered its plan: nothing was done (pass --param confirm=true). */
  confirm: 5,
  /** Ctrl-C. */
  interrupted: 130,
} as const;

export class UsageError extends Error {}

/** One line for stderr: the code first, so scripts and people can branch on it. */
export function describe(e: unknown): string {
  if (e instanceof CrawlerError) {
    const where = e.status ? ` (HTTP ${e.status})` : '';
    const task = typeof e.details.task_id === 'string' ? ` [task ${e.details.task_id}]` : '';
    return `error: ${e.code}${where}: ${e.message}${task}${e.retryable ? ' (retryable)' : ''}`;
  }
  if (e instanceof UsageError) return `error: ${e.message}`;
  return `error: ${(e as Error)?.message ?? String(e)}`;
}

/** A CrawlerError with a task behind it is the crawl's outcome; one without is the service's refusal. */
export function exitCodeOf(e: unknown): number {
  if (e instanceof UsageError) return EXIT.usage;
  if (e instanceof CrawlerError) return e.status === 0 && e.code !== 'network_error' ? EXIT.crawl : EXIT.service;
  return EXIT.service;
}

/** Commander's own refusals (a missing argument, an unknown option) exit with the usage code too; help exits 0. */
export function usageExits(cmd: Command): Command {
  return cmd.exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : EXIT.usage));
}

/** A command's action: runs the body, prints a failure as one line (code first), flushes stdout, exits with the code. */
export function exitingAction<A extends unknown[]>(body: (...args: A) => Promise<number>) {
  return async (...args: A): Promise<void> => {
    let code: number;
    try {
      code = await body(...args);
    } catch (e) {
      process.stderr.write(`${describe(e)}\n`);
      code = exitCodeOf(e);
    }
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    process.exit(code);
  };
}
