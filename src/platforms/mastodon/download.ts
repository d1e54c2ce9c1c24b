import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { absUrl, num, slot, slots } from '../download-slots.js';
import { obj, str } from './parse.js';
import { detailAction, readStatus } from './status.js';

/*
 * A Mastodon status's media_attachments: url (the file as this server stores it, meta.original sized),
 * remote_url (the author's server's copy, for a post from elsewhere), preview_url (the small still, for
 * pictures only: a video's preview is a picture of it). gifv is a looping mp4. Audio attachments are not
 * downloadable media here. Mastodon adds no watermark.
 */
export function statusSlots(raw: unknown): MediaSlot[] {
  const outer = obj(raw);
  const s = obj(outer?.reblog) ?? outer;
  const list = Array.isArray(s?.media_attachments) ? s.media_attachments : [];
  return slots(
    list.map((x: unknown) => {
      const a = obj(x);
      const type = str(a?.type);
      const kind = type === 'image' ? 'image' : type === 'video' || type === 'gifv' ? 'video' : undefined;
      if (!a || !kind) return undefined;
      const meta = obj(a.meta);
      const original = obj(meta?.original);
      const small = obj(meta?.small);
      const sized = { w: num(original?.width), h: num(original?.height), duration_s: kind === 'video' ? num(original?.duration) : undefined, bitrate: num(original?.bitrate) };
      const candidates: Array<StreamCandidate | undefined> = [];
      const url = absUrl(a.url);
      if (url) candidates.push({ kind, url, ...sized, watermark: false, source_quality: type === 'gifv' ? 'gifv_mp4' : 'original' });
      const remote = absUrl(a.remote_url);
      if (remote) candidates.push({ kind, url: remote, ...sized, watermark: false, source_quality: 'remote_original' });
      const preview = kind === 'image' ? absUrl(a.preview_url) : undefined;
      if (preview) candidates.push({ kind: 'image', url: preview, w: num(small?.width), h: num(small?.height), watermark: false, source_quality: 'preview' });
      return slot(kind, candidates);
    }),
  );
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A Mastodon post\'s attachments: pictures and videos (gifv as mp4) at their original size, the remote server\'s copy as a fallback',
  params: detailAction.params,
  async resolve(ctx, params) {
    const { draft, raw } = await readStatus(ctx, params);
    return { draft, slots: statusSlots(raw) };
  },
};
