/** One notification owed to a task's callback_url: one per (task, attempt, event), written when the task ends. */
export interface WebhookDelivery {
  /** Stable across retries of the delivery: receivers dedupe on it (X-Crawler-Delivery). */
  id: string;
  task_id: string;
  /** The task's attempt that ended (a retried task notifies again, for its new attempt). */
  attempt: number;
  event: 'task.finished';
  url: string;
  status: 'succeeded' | 'failed' | 'cancelled';
  source: string;
  action: string;
  finished_at: number;
  result_source: string | null;
  count: number | null;
  /** ErrorBody as JSON text (the task's error, or a blocked result's). */
  error: string | null;
  watch_id: string | null;
  state: 'pending' | 'delivered' | 'given_up';
  created_at: number;
  next_at: number;
  first_attempt_at: number | null;
  /** Claims so far, this one included: the number of the attempt a claim is for. */
  tries: number;
  done_at: number | null;
}

export interface WebhookAttempt {
  n: number;
  at: number;
  http_status: number | null;
  error: string | null;
  ms: number;
}

/** What a delivery attempt ended in: delivered, retried at next_at, or given up. */
export type WebhookOutcome = { state: 'delivered' } | { state: 'pending'; next_at: number } | { state: 'given_up' };

/**
 * The webhook outbox (a sub-port beside the Store, in the same database). Rows are inserted by the
 * database itself when a task row reaches an end state (a trigger), so the notification is committed
 * with the finish whichever process finishes it, and the (task, attempt, event) key keeps it single.
 */
export interface WebhookOutbox {
  /**
   * Leases up to limit due deliveries to owner until leaseUntil, in one conditional statement: of
   * processes asking at once each row goes to one. A row whose lease ran out (its process died) is due again.
   */
  claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]>;
  /** Logs the attempt and applies its outcome, the latter only while owner still holds the lease. */
  complete(id: string, owner: string, attempt: WebhookAttempt, outcome: WebhookOutcome): Promise<boolean>;
  /** A task's deliveries (every attempt of the task), oldest first, each with its attempts log. */
  forTask(taskId: string): Promise<Array<WebhookDelivery & { attempts: WebhookAttempt[] }>>;
  /** Drops deliveries (and their logs) created before the time. */
  purge(before: number): Promise<number>;
}
