import { z } from 'zod';
import { ErrorBodySchema } from '../domain/errors.js';
import type { WebhookAttempt, WebhookDelivery } from '../store/webhooks.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** What a callback_url receives when a task ends: a notification, never the result (fetch it with GET /v1/tasks/{id}). */
export const WebhookNotificationSchema = z
  .object({
    event: z.literal('task.finished'),
    task_id: z.string(),
    status: z.enum(['succeeded', 'failed', 'cancelled']),
    source: z.string().describe('the platform'),
    action: z.string(),
    attempts: z.number().int().positive().describe('the attempt that ended (a retried task notifies again, attempts + 1)'),
    finished_at: z.string(),
    result_source: z.enum(['live', 'cache', 'empty', 'blocked']).optional().describe("the result's source, when it succeeded"),
    count: z.number().int().nonnegative().optional().describe('items in the result'),
    error: ErrorBodySchema.optional().describe('a failed task\'s error, or a blocked result\'s'),
    watch_id: z.string().optional().describe('the watch whose run this task is'),
  })
  .strict();
export type WebhookNotification = z.infer<typeof WebhookNotificationSchema>;

const RESULT_SOURCES = new Set(['live', 'cache', 'empty', 'blocked']);

/** The notification of one owed delivery, from the summary its row took when the task ended. */
export function notificationOf(d: WebhookDelivery): WebhookNotification {
  const out: WebhookNotification = {
    event: 'task.finished',
    task_id: d.task_id,
    status: d.status,
    source: d.source,
    action: d.action,
    attempts: d.attempt,
    finished_at: iso(d.finished_at),
  };
  if (d.result_source && RESULT_SOURCES.has(d.result_source)) out.result_source = d.result_source as WebhookNotification['result_source'];
  if (typeof d.count === 'number' && d.count >= 0) out.count = d.count;
  const error = parseError(d.error);
  if (error) out.error = error;
  if (d.watch_id) out.watch_id = d.watch_id;
  return out;
}

function parseError(text: string | null): WebhookNotification['error'] {
  if (!text) return undefined;
  try {
    const e = ErrorBodySchema.safeParse(JSON.parse(text));
    return e.success ? e.data : undefined;
  } catch {
    return undefined;
  }
}

const AttemptSchema = z
  .object({
    n: z.number().int().positive().describe('attempt number of this delivery'),
    at: z.string(),
    http_status: z.number().int().optional().describe("the receiver's status; 2xx counts as delivered, a 3xx is a failure (redirects are never followed)"),
    error: z.string().optional().describe('why no status was had, or why the status is a failure'),
    ms: z.number().int().nonnegative(),
  })
  .strict();

const DeliverySchema = z
  .object({
    delivery_id: z.string().describe('the X-Crawler-Delivery header: the same on every attempt'),
    event: z.literal('task.finished'),
    attempt: z.number().int().positive().describe("the task's attempt this notification is for"),
    url: z.string(),
    state: z.enum(['pending', 'delivered', 'given_up']),
    created_at: z.string(),
    next_at: z.string().optional().describe('pending: when the next attempt is due'),
    done_at: z.string().optional(),
    attempts: z.array(AttemptSchema),
  })
  .strict();

/** GET /v1/tasks/{id}/webhooks */
export const WebhookLogSchema = z.object({ task_id: z.string(), deliveries: z.array(DeliverySchema) }).strict();
export type WebhookLog = z.infer<typeof WebhookLogSchema>;

/** GET /v1/webhooks/secret (admin) */
export const WebhookSecretSchema = z
  .object({
    secret: z.string().describe('the HMAC-SHA256 key of X-Crawler-Signature, used as UTF-8 bytes'),
    source: z.enum(['env', 'derived']).describe('CRAWLER_WEBHOOK_SECRET, or derived from the server secret'),
  })
  .strict();

export function webhookLog(taskId: string, rows: Array<WebhookDelivery & { attempts: WebhookAttempt[] }>): WebhookLog {
  return {
    task_id: taskId,
    deliveries: rows.map((d) => ({
      delivery_id: d.id,
      event: 'task.finished',
      attempt: d.attempt,
      url: d.url,
      state: d.state,
      created_at: iso(d.created_at),
      ...(d.state === 'pending' ? { next_at: iso(d.next_at) } : {}),
      ...(d.done_at !== null ? { done_at: iso(d.done_at) } : {}),
      attempts: d.attempts.map((a) => ({
        n: a.n,
        at: iso(a.at),
        ...(a.http_status !== null ? { http_status: a.http_status } : {}),
        ...(a.error !== null ? { error: a.error } : {}),
        ms: a.ms,
      })),
    })),
  };
}
