/**
 * The cancel port: a cancel asked on any process reaches the run of the task, wherever it runs.
 * Embedded, runs and requests share one process; a fleet's backend carries the request to the worker.
 */
export interface CancelSignal {
  /** Registers a run of this process: the signal aborts once the task is cancelled. release() when the run ends. */
  watch(taskId: string): { signal: AbortSignal; release(): void };
  /** Asks the run of the task to stop; resolves once asked (a task no process runs is a no-op). */
  cancel(taskId: string): Promise<void>;
}
