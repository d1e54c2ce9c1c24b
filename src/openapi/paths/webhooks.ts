import { json } from '../responses.js';
import type { RouteDoc } from '../route-doc.js';
import { ref } from '../schemas.js';
import type { OperationObject } from '../types.js';

export const WEBHOOK_SIGNING = [
  'Each POST carries `X-Crawler-Signature: t=<unix seconds>,v1=<hex>`, where v1 is HMAC-SHA256 over `<t>.<raw body>` keyed with the webhook secret',
  '(`GET /v1/webhooks/secret`, admin), `X-Crawler-Delivery` (the same on every attempt: dedupe on it, delivery is at least once) and `X-Crawler-Event: task.finished`.',
  'Check the signature over the raw bytes before parsing, compare in constant time, and refuse a `t` more than 5 minutes off.',
  'A 2xx answer within 10 s is a delivery; anything else (a 3xx too: redirects are never followed) is retried with backoff (10 s, 30 s, 2 min, 10 min, 30 min, then hourly, ±20 %) until 24 h after the first attempt.',
].join(' ');

export function webhookDocs(): RouteDoc[] {
  return [
    {
      method: 'GET',
      path: '/v1/tasks/:id/webhooks',
      access: 'any',
      tag: 'Tasks',
      summary: "The delivery log of a task's callback_url notifications",
      description: [
        'One delivery per attempt of the task that ended (a retried task notifies again), each with its attempts: when, the HTTP status or the error, and how long it took.',
        'Owner-scoped like the task: another token gets 404. A task without `params.callback_url` has no deliveries.',
        '',
        WEBHOOK_SIGNING,
      ].join('\n'),
      pathParams: { id: 'the task_id a submit answered' },
      responses: { 200: json('WebhookLog', 'the deliveries, oldest first') },
      errors: ['not_found'],
    },
    {
      method: 'GET',
      path: '/v1/webhooks/secret',
      access: 'admin',
      tag: 'Operator',
      summary: 'The webhook signing secret (admin)',
      description: 'CRAWLER_WEBHOOK_SECRET when set, else derived from the server secret: every process of a fleet signs with the same one. Also `crawler webhooks secret`.',
      responses: { 200: json('WebhookSecret', 'the secret receivers verify X-Crawler-Signature with') },
    },
  ];
}

/** OpenAPI 3.1 `webhooks`: what the service sends to a task's callback_url. */
export function webhookCallbacks(): Record<string, Record<string, OperationObject>> {
  const header = (name: string, description: string, pattern?: string) => ({ name, in: 'header' as const, required: true, description, schema: { type: 'string', ...(pattern ? { pattern } : {}) } });
  return {
    'task.finished': {
      post: {
        operationId: 'webhookTaskFinished',
        tags: ['Tasks'],
        summary: 'A task with params.callback_url ended (succeeded, failed or cancelled)',
        description: `A notification, never the result: fetch it with GET /v1/tasks/{task_id}. ${WEBHOOK_SIGNING}`,
        security: [],
        parameters: [
          header('X-Crawler-Signature', 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">', '^t=\\d+,v1=[0-9a-f]{64}$'),
          header('X-Crawler-Delivery', 'the delivery id, the same on every attempt'),
          header('X-Crawler-Event', 'task.finished'),
        ],
        requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookNotification') } } },
        responses: { '200': { description: 'any 2xx within 10 s: delivered' } },
      },
    },
  };
}
