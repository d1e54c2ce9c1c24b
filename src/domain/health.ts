import { z } from 'zod';

/** GET /v1/health: liveness and light fleet figures; never any account data. */
export const HealthSchema = z.object({
  ok: z.literal(true),
  version: z.string(),
  mode: z.enum(['embedded', 'distributed']),
  role: z.enum(['api', 'worker', 'all']),
  replay: z.boolean(),
  uptime_s: z.number().int().nonnegative(),
  /** Task counts by status. */
  queue: z.record(z.string(), z.number().int().nonnegative()),
  /** Embedded mode only: this one process is the whole fleet. */
  workers: z.number().int().optional(),
  queue_depth: z.number().int().nonnegative().optional(),
  ffmpeg: z.boolean(),
  browser: z.boolean(),
});
export type Health = z.infer<typeof HealthSchema>;
