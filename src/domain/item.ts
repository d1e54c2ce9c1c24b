import { z } from 'zod';

export const ITEM_TYPES = ['video', 'image', 'text'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

export const MediaSchema = z.object({
  kind: z.enum(['video', 'image']),
  url: z.string(),
  w: z.number().int().nonnegative().optional(),
  h: z.number().int().nonnegative().optional(),
  duration_s: z.number().nonnegative().optional(),
});
export type Media = z.infer<typeof MediaSchema>;

export const PREVIEW_STATUSES = ['hit', 'rendered', 'pending'] as const;
export const PreviewSchema = z.object({
  url: z.string(),
  // Absent on a pending preview whose source did not report its size or length: never a guess.
  w: z.number().int().positive().optional(),
  h: z.number().int().positive().optional(),
  seconds: z.number().positive().optional(),
  status: z.enum(PREVIEW_STATUSES),
});
export type Preview = z.infer<typeof PreviewSchema>;

/** The platform's raw numbers; a count the platform did not report is absent. */
export const StatsSchema = z.object({
  likes: z.number().optional(),
  comments: z.number().optional(),
  shares: z.number().optional(),
  views: z.number().optional(),
});
export type Stats = z.infer<typeof StatsSchema>;

export const ItemSchema = z.object({
  id: z.string().regex(/^[a-z0-9]+:.+$/, 'id must be <provider>:<native_id>'),
  type: z.enum(ITEM_TYPES),
  provider: z.string(),
  title: z.string().optional(),
  text: z.string().optional(),
  author: z.string().optional(),
  author_id: z.string().optional(),
  author_handle: z.string().optional(),
  author_url: z.string().optional(),
  url: z.string().optional(),
  thumb: z.string().optional(),
  media: z.array(MediaSchema),
  preview: PreviewSchema.optional(),
  ts: z.number().int().optional(),
  duration_s: z.number().nonnegative().optional(),
  aspect: z.object({ width: z.number().positive(), height: z.number().positive() }).optional(),
  stats: StatsSchema,
  provenance: z.enum(['live', 'cache']),
});
export type Item = z.infer<typeof ItemSchema>;
