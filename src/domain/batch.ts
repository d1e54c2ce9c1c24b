import { z } from 'zod';
import { ErrorBodySchema } from './errors.js';
import { TASK_STATUSES, TaskSubmitSchema } from './task.js';

export const BATCH_MAX = 500;

export const BatchSubmitSchema = z
  .object({
    tasks: z.array(TaskSubmitSchema).min(1).max(BATCH_MAX).describe(`1 to ${BATCH_MAX} entries, each the body of a POST /v1/tasks (reads only)`),
  })
  .strict();

const BatchTaskSchema = z.object({
  index: z.number().int().nonnegative().describe("the entry's position in the request's tasks array"),
  task_id: z.string(),
  status: z.enum(TASK_STATUSES).nullable().describe('the task now (at acceptance in the POST answer: queued, or succeeded for a cache hit); null once retention purged the task'),
});

export const BatchAcceptedSchema = z.object({
  batch_id: z.string(),
  accepted: z.number().int().nonnegative(),
  refused: z.array(z.object({ index: z.number().int().nonnegative(), error: ErrorBodySchema })).describe('entries not accepted, each with the error a POST /v1/tasks of it would have answered'),
  tasks: z.array(BatchTaskSchema),
});

export const BatchCountsSchema = z.object({
  queued: z.number().int(),
  running: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});

export const BatchSchema = z.object({
  batch_id: z.string(),
  created_at: z.string(),
  total: z.number().int().nonnegative().describe('entries accepted (each a task)'),
  counts: BatchCountsSchema.describe('tasks per status now; a blocked crawl counts as succeeded (its result.source is blocked)'),
  task_ids: z.array(z.string()).describe('in entry order'),
  tasks: z.array(BatchTaskSchema),
});

export const BatchRetrySchema = z.object({
  batch_id: z.string(),
  retried: z.array(z.object({ index: z.number().int(), task_id: z.string() })),
  skipped: z.array(z.object({ index: z.number().int(), task_id: z.string(), reason: z.string() })).describe('entries left as they are, and why'),
});

export type BatchAccepted = z.infer<typeof BatchAcceptedSchema>;
export type Batch = z.infer<typeof BatchSchema>;
export type BatchRetry = z.infer<typeof BatchRetrySchema>;
