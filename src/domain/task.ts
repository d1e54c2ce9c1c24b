import { z } from 'zod';
import { ErrorBodySchema } from './errors.js';

export const TASK_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const ACTIONS = [
  'search', 'posts', 'user', 'detail', 'comments', 'hot', 'recommended', 'trending',
  'download', 'post.create', 'comment.create', 'delete',
] as const;
export type ActionName = (typeof ACTIONS)[number];

export const TaskSubmitSchema = z.object({
  source: z.string().min(1).max(64),
  action: z.string().min(1).max(64),
  params: z.record(z.string(), z.unknown()).optional().default({}),
}).strict();
export type TaskSubmit = z.infer<typeof TaskSubmitSchema>;

export const ProgressSchema = z.object({
  items: z.number().int(),
  pages: z.number().int(),
  /** download: bytes fetched so far, files stored so far, and files the post has (of the media asked for). */
  bytes: z.number().int().nonnegative().optional(),
  files: z.number().int().nonnegative().optional(),
  files_total: z.number().int().nonnegative().optional(),
});
export type Progress = z.infer<typeof ProgressSchema>;

export const TaskSchema = z.object({
  task_id: z.string(),
  status: z.enum(TASK_STATUSES),
  source: z.string(),
  action: z.string(),
  params: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  started_at: z.string().optional(),
  finished_at: z.string().optional(),
  attempts: z.number().int().nonnegative(),
  progress: ProgressSchema.optional(),
  result: z.unknown().optional(),
  error: ErrorBodySchema.optional(),
});
export type Task = z.infer<typeof TaskSchema>;

/** The answer to a submit that did not finish within `wait`: the state at acceptance, always queued. */
export const TaskAcceptedSchema = z.object({ task_id: z.string(), status: z.literal('queued') });

/** A listed task: no result, but where a succeeded one's result is read. */
export const TaskSummarySchema = TaskSchema.omit({ result: true }).extend({ result_url: z.string().optional() });

/** GET /v1/tasks: the caller's own tasks, newest first, without results. */
export const TaskListSchema = z.object({ tasks: z.array(TaskSummarySchema), next_cursor: z.string().optional() });

/** A write verb's first call without confirm: nothing is queued, the plan says what would be done. */
export const NeedsConfirmationSchema = z.object({
  status: z.literal('needs_confirmation'),
  plan: z.object({
    action: z.string(),
    summary: z.string(),
    target: z.string().optional(),
    params: z.record(z.string(), z.unknown()),
  }),
});
