import { NotFound } from '../../crawl/errors.js';
import type { DownloadAction, MediaSlot } from '../../download/types.js';
import { slot, slots } from '../download-slots.js';
import { detailAction, readMessage } from './detail.js';
import type { TgMessage } from './parse.js';

/*
 * A channel message's photos and videos as t.me's web preview shows them: a photo's background-image URL
 * (the web-sized copy t.me serves, the only one without the Telegram API) and a video's <video src>. A
 * video the preview withholds ("Media is too big") has no stream here: only a Telegram client gets it.
 * Telegram adds no watermark.
 */
export function messageSlots(msg: TgMessage): MediaSlot[] {
  const got = slots(
    msg.media.map((m) => (m.url ? slot(m.kind, [{ kind: m.kind, url: m.url, w: m.w, h: m.h, duration_s: m.duration_s, mime: m.kind === 'video' ? 'video/mp4' : undefined, watermark: false, source_quality: m.kind === 'video' ? 'web_preview_video' : 'web_preview_photo' }]) : undefined)),
  );
  const withheld = msg.media.filter((m) => !m.url).length;
  if (withheld && !got.length) {
    throw new NotFound(`telegram ${msg.channel}/${msg.id}: t.me's web preview withholds the stream of ${withheld} video(s)${msg.unsupported ? ` ("${msg.unsupported}")` : ''}; only a Telegram client can fetch it`);
  }
  return got;
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A Telegram channel message\'s photos and videos as t.me\'s web preview serves them',
  params: detailAction.params,
  async resolve(ctx, params) {
    const { draft, msg } = await readMessage(ctx, params);
    if (msg.media.some((m) => !m.url) && msg.media.some((m) => m.url)) ctx.warn(`telegram ${msg.channel}/${msg.id}: some videos have no stream in t.me's web preview and are left out`);
    return { draft, slots: messageSlots(msg) };
  },
};
