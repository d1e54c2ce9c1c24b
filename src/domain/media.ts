import { z } from 'zod';
import { ErrorBodySchema } from './errors.js';

export const MEDIA_FAILURE_REASONS = ['expired', 'blocked', 'session_expired', 'not_found', 'unsupported'] as const;
export const PREVIEW_REASONS = ['expired', 'blocked', 'session_expired', 'no_stream', 'unsupported'] as const;

/** A media proxy failure: the spec's error body, plus why a refresh of the origin URL failed where known. */
export const MediaErrorSchema = z.object({
  ok: z.literal(false),
  error: ErrorBodySchema.extend({ reason: z.enum(MEDIA_FAILURE_REASONS).optional() }),
});

/** 202 from GET /v1/preview: poll the same URL after Retry-After. */
export const PreviewRenderingSchema = z.object({ status: z.literal('rendering') });

/** The spec's terminal preview failure (404), not the usual error body. */
export const PreviewUnavailableSchema = z.object({
  code: z.literal('preview_unavailable'),
  reason: z.enum(PREVIEW_REASONS),
  message: z.string().optional(),
});

const WarmKey = { platform: z.string(), id: z.string() };
/** POST /v1/preview/warm: one state per requested item, in request order. */
export const PreviewWarmResultSchema = z.object({
  items: z.array(
    z.discriminatedUnion('status', [
      z.object({ ...WarmKey, status: z.literal('ready'), url: z.string(), w: z.number().int().positive().optional(), h: z.number().int().positive().optional(), seconds: z.number().positive().optional() }),
      z.object({ ...WarmKey, status: z.literal('rendering'), url: z.string() }),
      z.object({ ...WarmKey, status: z.literal('busy') }),
      z.object({ ...WarmKey, status: z.literal('unavailable'), reason: z.enum(PREVIEW_REASONS) }),
    ]),
  ),
});
