import { BATCH_MAX } from '../../domain/batch.js';
import { json } from '../responses.js';
import type { RouteDoc } from '../route-doc.js';
import { ref } from '../schemas.js';

const BATCH_ID = { id: 'the batch_id POST /v1/tasks/batch answered' };

export function batchDocs(): RouteDoc[] {
  return [
    {
      method: 'POST',
      path: '/v1/tasks/batch',
      access: 'read',
      tag: 'Tasks',
      summary: `Submit up to ${BATCH_MAX} read tasks at once`,
      description: [
        `Each entry is the body of a POST /v1/tasks and is handled exactly like one (validation, cache hits, queueing), one by one: a bad entry is refused with the error that POST would have answered, by index, and the others go ahead. Write verbs are refused per entry (they need their own confirm step).`,
        `The whole request is refused (400) when tasks is missing, empty, longer than ${BATCH_MAX}, or holds a non-object. Always 202: even when every entry is refused a batch is made (total 0), so one answer shape covers every case. No inline wait: follow the batch with GET /v1/batches/{id}, or each task.`,
        'The body may be up to 8 MiB (other routes: 1 MiB); larger is 413.',
      ].join('\n\n'),
      body: { description: `{tasks: [{source, action, params}, …]} with 1 to ${BATCH_MAX} entries`, schema: ref('BatchSubmit') },
      responses: { 202: json('BatchAccepted', 'the batch, its tasks by entry index (status at acceptance: queued, or succeeded for a cache hit) and the refused entries') },
      errors: ['invalid_request', { code: 'invalid_request', status: 413, when: 'the body is larger than 8 MiB' }],
    },
    {
      method: 'GET',
      path: '/v1/batches/:id',
      access: 'read',
      tag: 'Tasks',
      summary: "A batch's tasks and their counts per status",
      description: 'Owner-scoped like a task: another token\'s batch is 404. A task purged by retention shows status null and is in no count.',
      pathParams: BATCH_ID,
      responses: { 200: json('Batch', 'counts per status and every task id, in entry order') },
      errors: ['not_found'],
    },
    {
      method: 'POST',
      path: '/v1/batches/:id/retry',
      access: 'read',
      tag: 'Tasks',
      summary: 'Retry the batch\'s failures that a retry can help',
      description:
        'Retries each failed task whose error is retryable (rate_limited, blocked, timeout, upstream_error) and each succeeded task whose result is blocked, like POST /v1/tasks/{id}/retry. Permanent failures (not_found, invalid_request, session_expired…), cancelled, queued, running and plainly succeeded tasks are skipped, each with the reason.',
      pathParams: BATCH_ID,
      responses: { 200: json('BatchRetry', 'which entries were retried, which skipped and why') },
      errors: ['not_found'],
    },
  ];
}
