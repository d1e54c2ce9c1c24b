import { z } from 'zod';

/** GET /v1/health: liveness and light fleet figures; account data (per-account depths) only for an admin token. */
export const HealthSchema = z.object({
  ok: z.literal(true),
  version: z.string(),
  mode: z.enum(['embedded', 'distributed']),
  role: z.enum(['api', 'worker', 'all']),
  replay: z.boolean(),
  uptime_s: z.number().int().nonnegative(),
  /** Task counts by status. */
  queue: z.record(z.string(), z.number().int().nonnegative()),
  /** Worker processes: embedded, this one process's crawl slots; distributed, live worker processes by their heartbeats. */
  workers: z.number().int().optional(),
  /** Queued work: embedded, queued tasks; distributed, jobs waiting or running across the account queues. */
  queue_depth: z.number().int().nonnegative().optional(),
  /** Distributed: crawl slots of the live workers, summed. */
  worker_slots: z.number().int().nonnegative().optional(),
  /** Distributed: crawls running now across the workers. */
  running: z.number().int().nonnegative().optional(),
  /** Distributed: queue depth per platform. */
  queues: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Distributed, admin token only: queue depth per account (platform:profile). */
  accounts: z.record(z.string(), z.number().int().nonnegative()).optional(),
  ffmpeg: z.boolean(),
  browser: z.boolean(),
});
export type Health = z.infer<typeof HealthSchema>;
