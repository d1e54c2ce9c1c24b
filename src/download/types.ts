import type { CatalogParam } from '../domain/catalog.js';
import type { CrawlContext, ItemDraft, Params } from '../platforms/types.js';

/**
 * One stream a platform offers for one media position of a post. The adapter lists every variant it
 * knows; the download core picks by the caller's `quality` and never passes a watermarked stream off
 * as a clean one: `source_quality` is copied to the stored file as is.
 */
export interface StreamCandidate {
  kind: 'video' | 'image';
  /** Origin URL (absolute). Fetched through the SSRF-safe connector with the profile's session. */
  url: string;
  /** A separate audio stream (DASH, adaptive formats, v.redd.it): muxed into the video without re-encoding. */
  audio_url?: string;
  /** Headers this CDN wants (Referer, Origin, UA); the adapter's mediaHeaders apply too. */
  headers?: Record<string, string>;
  mime?: string;
  w?: number;
  h?: number;
  duration_s?: number;
  /** Bits per second, where the platform says. */
  bitrate?: number;
  bytes?: number;
  /** True when the platform marks this stream as watermarked (douyin/tiktok download_addr, …). */
  watermark: boolean;
  /**
   * Which stream this is, in the platform's own terms, e.g. `play_addr_no_watermark`, `download_addr_watermarked`,
   * `dash_video_1080p+dash_audio_192k`, `original`, `progressive_720p`, `variant_2176kbps`.
   */
  source_quality: string;
}

/** One media position of a post (a video, one image of a set, one half of a live photo). */
export interface MediaSlot {
  kind: 'video' | 'image';
  /** Live photo: the still and its motion part are two slots of one group. */
  group?: string;
  candidates: StreamCandidate[];
}

/** What an adapter's download resolves a post reference to. */
export interface DownloadPlan {
  /** The post, as its detail action would give it. */
  draft: ItemDraft;
  /** Every media position; empty: the post has no media (the result is `empty`). */
  slots: MediaSlot[];
}

/**
 * The `download` action of an adapter. It resolves the post (normally through its own detail request) and
 * lists the streams; fetching, muxing, storing and the result shape are the core's (src/download/).
 * Throw the usual typed errors: a stream withheld for login, region or a PO token is SessionExpired,
 * Blocked or NotFound with the reason in the message, never an empty plan.
 */
export interface DownloadAction {
  shape: 'download';
  summary: string;
  params?: CatalogParam[];
  resolve(ctx: CrawlContext, params: Params): Promise<DownloadPlan>;
}
