import { z } from 'zod';
import { EnvelopeSchema } from './results.js';

/** One stored file of a download (decisions.md "Download"). */
export const DownloadFileSchema = z.object({
  id: z.string(),
  url: z.string().describe('/v1/files/{id}?exp=&sig=: a signed service URL (no bearer needed; Range, HEAD, Content-Disposition); 404 not_found once evicted'),
  kind: z.enum(['video', 'image']),
  mime: z.string(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string(),
  w: z.number().int().optional(),
  h: z.number().int().optional(),
  duration_s: z.number().optional(),
  source_quality: z.string().describe("which stream this is, in the platform's terms (e.g. play_addr_no_watermark, download_addr_watermarked, dash_1080p+dash_audio_192k)"),
  name: z.string().describe('the readable file name Content-Disposition gives'),
  pinned: z.boolean().optional(),
});
export type DownloadFile = z.infer<typeof DownloadFileSchema>;

/** Shape A (one item, as detail gives it) plus the stored files. */
export const DownloadResultSchema = EnvelopeSchema.extend({ files: z.array(DownloadFileSchema) });
export type DownloadResult = z.infer<typeof DownloadResultSchema>;

/** GET /v1/files/{id}/meta and the pin routes: a file's record with a freshly signed URL. */
export const DownloadFileMetaSchema = DownloadFileSchema.extend({
  platform: z.string(),
  native_id: z.string(),
  created_at: z.string(),
  last_access: z.string(),
  pinned: z.boolean(),
});
