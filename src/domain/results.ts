import { z } from 'zod';
import { ErrorBodySchema } from './errors.js';
import { ItemSchema } from './item.js';
import { WatchRunInfoSchema } from './watch.js';

/** A pool task's result names the profile the service picked to crawl it (params.profile "pool" or "pool:<name>"). */
const PoolProfileSchema = z.string().optional().describe('pool tasks only: the profile that ran the crawl');

export const RESULT_SOURCES = ['live', 'cache', 'empty', 'blocked'] as const;
export type ResultSource = (typeof RESULT_SOURCES)[number];
const SourceSchema = z.enum(RESULT_SOURCES);

/** Shape A: search, posts, hot, recommended, detail. */
export const EnvelopeSchema = z.object({
  ok: z.boolean(),
  source: SourceSchema,
  count: z.number().int().nonnegative(),
  items: z.array(ItemSchema),
  next_cursor: z.string().optional(),
  age_s: z.number().int().nonnegative().optional(),
  ms: z.number().int().nonnegative(),
  error: ErrorBodySchema.optional(),
  warnings: z.array(z.string()).optional(),
  watch: WatchRunInfoSchema.optional(),
  profile: PoolProfileSchema,
});
export type Envelope = z.infer<typeof EnvelopeSchema>;

export const CommentSchema = z.object({
  cid: z.string(),
  text: z.string(),
  likes: z.number(),
  reply_total: z.number(),
  user_id: z.string(),
  sec_uid: z.string().optional(),
  handle: z.string(),
  user_name: z.string(),
  created_at: z.number().int(),
  source: z.string(),
  url: z.string().optional(),
  parent_id: z.string().optional(),
});
export type Comment = z.infer<typeof CommentSchema>;

/** Shape B: no top-level ok; callers branch on source. */
export const CommentsResultSchema = z.object({
  source: SourceSchema,
  total: z.number().int().nonnegative(),
  has_more: z.boolean(),
  cursor: z.string().optional(),
  ms: z.number().int().nonnegative(),
  items: z.array(CommentSchema),
  error: ErrorBodySchema.optional(),
  warnings: z.array(z.string()).optional(),
  age_s: z.number().int().nonnegative().optional(),
  watch: WatchRunInfoSchema.optional(),
  profile: PoolProfileSchema,
});
export type CommentsResult = z.infer<typeof CommentsResultSchema>;

/** 0 or absent means "not reported", never a true zero. */
export const AuthorSchema = z.object({
  id: z.string(),
  source: z.string(),
  handle: z.string().optional(),
  name: z.string().optional(),
  bio: z.string().optional(),
  avatar: z.string().optional(),
  url: z.string().optional(),
  followers: z.number().optional(),
  following: z.number().optional(),
  posts: z.number().optional(),
  likes: z.number().optional(),
  verified: z.boolean().optional(),
});
export type Author = z.infer<typeof AuthorSchema>;

/** Shape C: action user. */
export const CreatorResultSchema = z.object({
  ok: z.boolean(),
  source: SourceSchema,
  items: z.array(z.never()).length(0),
  ms: z.number().int().nonnegative(),
  data: z.object({ platform: z.string(), author: AuthorSchema }).optional(),
  error: ErrorBodySchema.optional(),
  warnings: z.array(z.string()).optional(),
  age_s: z.number().int().nonnegative().optional(),
  profile: PoolProfileSchema,
});
export type CreatorResult = z.infer<typeof CreatorResultSchema>;

export const TrendSchema = z.object({
  word: z.string(),
  source: z.string(),
  rank: z.number().int().positive(),
  hot_value: z.number().optional(),
  url: z.string().optional(),
});
export type Trend = z.infer<typeof TrendSchema>;

/** Shape D: action trending. */
export const TrendResultSchema = z.object({
  ok: z.boolean(),
  source: SourceSchema,
  items: z.array(z.never()).length(0),
  ms: z.number().int().nonnegative(),
  data: z.object({ platform: z.string(), trends: z.array(TrendSchema) }).optional(),
  error: ErrorBodySchema.optional(),
  warnings: z.array(z.string()).optional(),
  age_s: z.number().int().nonnegative().optional(),
  watch: WatchRunInfoSchema.optional(),
  profile: PoolProfileSchema,
});
export type TrendResult = z.infer<typeof TrendResultSchema>;

export const WRITE_STATES = ['planned', 'published', 'deleted', 'session_expired', 'blocked', 'rejected', 'duplicate'] as const;
/** Shape E: write verbs. */
export const WriteResultSchema = z.object({
  ok: z.boolean(),
  state: z.enum(WRITE_STATES),
  url: z.string().optional(),
  target: z.string().optional(),
  source: z.string(),
  ms: z.number().int().nonnegative(),
  error: ErrorBodySchema.optional(),
  task_id: z.string().optional(),
});
export type WriteResult = z.infer<typeof WriteResultSchema>;

/** DownloadResult (src/domain/download.ts) is an Envelope with files, so it is a TaskResult as it stands. */
export type TaskResult = Envelope | CommentsResult | CreatorResult | TrendResult | WriteResult;
