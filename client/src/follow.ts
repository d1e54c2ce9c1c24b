import type { CrawlerClient } from './client.js';
import { CrawlerError, isAbort } from './errors.js';
import type { NeedsConfirmation, Params, Progress, Task } from './types.js';

export interface RunOptions {
  /**
   * Aborting cancels the task on the server, then the call throws the abort reason; a timeout
   * (`AbortSignal.timeout`) only stops following it: the task goes on, and its id was given to `onTask`.
   */
  signal?: AbortSignal;
  /** The task's progress events (items, pages) as the server sends them, and its last count at the end. */
  onProgress?: (p: Progress, taskId: string) => void;
  /** The task's id as soon as it is accepted. */
  onTask?: (taskId: string) => void;
}

const isTimeout = (reason: unknown) => (reason as { name?: string } | null)?.name === 'TimeoutError';

async function cancelQuietly(client: CrawlerClient, taskId: string): Promise<void> {
  try {
    await client.cancel(taskId);
  } catch {
    // The caller is already leaving with the abort; a cancel that failed leaves the task to end on its own.
  }
}

/** Submits a task and follows its event stream to the end: the finished task, whatever its status. */
export async function runTask<R>(client: CrawlerClient, source: string, action: string, params: Params, o: RunOptions): Promise<Task<R> | NeedsConfirmation> {
  // The submit is not abortable: its answer carries the id an abort needs to cancel the task.
  const accepted = (await client.submit({ source, action, params })) as { task_id: string; status: string } | NeedsConfirmation;
  if (accepted.status === 'needs_confirmation') return accepted as NeedsConfirmation;
  const id = (accepted as { task_id: string }).task_id;
  o.onTask?.(id);
  try {
    o.signal?.throwIfAborted();
    for await (const e of client.stream(id, { signal: o.signal })) {
      if (e.type === 'progress') o.onProgress?.(e.progress, id);
      else if (e.type === 'result') {
        // A task that ended before the stream opened sends no progress events: its last count is on the task.
        if (e.task.progress) o.onProgress?.(e.task.progress, id);
        return e.task as Task<R>;
      }
    }
  } catch (e) {
    if ((isAbort(e) || o.signal?.aborted) && !isTimeout(o.signal?.reason)) await cancelQuietly(client, id);
    throw e;
  }
  throw new CrawlerError({ code: 'network_error', message: `task stream ${id} ended without a result`, retryable: true, details: { task_id: id } });
}
