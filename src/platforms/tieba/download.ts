import type { DownloadAction, MediaSlot, StreamCandidate } from '../../download/types.js';
import { absUrl, slot, slots } from '../download-slots.js';
import type { ItemDraft } from '../types.js';
import { detailAction, readThread } from './detail.js';
import { objs, type Json } from './values.js';

/*
 * A tieba thread's opening floor. The PC JSON's image fragments (type 3) name origin_src (the uploaded
 * picture), big_cdn_src and cdn_src (scaled copies), each listed. The HTML page names a scaled copy
 * (…/forum/w%3D580/sign=…/<name>.jpg); the uploaded picture of the same name is served under
 * /forum/pic/item/<name> on the same host, listed first. A thread's video (HTML) is its one stream.
 * Tieba adds no watermark to the files it serves.
 */

/** The /forum/pic/item/ original behind a scaled tieba picture URL, when the URL has that form. */
export function originalOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (!/(^|\.)(tiebapic|imgsa|imgsrc)\.baidu\.com$|\.hiphotos\.baidu\.com$/.test(u.hostname)) return undefined;
    const m = /^\/forum\/(?!pic\/item\/)[^?]*\/([0-9a-f]{16,}\.(?:jpe?g|png|gif|webp))$/i.exec(u.pathname);
    return m ? `https://${u.hostname}/forum/pic/item/${m[1]}` : undefined;
  } catch {
    return undefined;
  }
}

function fromFragments(content: unknown): MediaSlot[] {
  const seen = new Set<string>();
  return slots(
    objs(content)
      .filter((p) => Number(p.type ?? 0) === 3)
      .map((p) => {
        const [w, h] = String(p.bsize ?? '').split(',').map(Number);
        const size = w! > 0 && h! > 0 ? { w, h } : {};
        const list: Array<StreamCandidate | undefined> = [
          absUrl(p.origin_src) ? { kind: 'image', url: absUrl(p.origin_src)!, ...size, watermark: false, source_quality: 'origin_src' } : undefined,
          absUrl(p.big_cdn_src) ? { kind: 'image', url: absUrl(p.big_cdn_src)!, watermark: false, source_quality: 'big_cdn_src' } : undefined,
          absUrl(p.cdn_src) ? { kind: 'image', url: absUrl(p.cdn_src)!, watermark: false, source_quality: 'cdn_src' } : undefined,
        ];
        const key = list.find(Boolean)?.url;
        if (!key || seen.has(key)) return undefined;
        seen.add(key);
        return slot('image', list);
      }),
  );
}

function fromDraft(draft: ItemDraft): MediaSlot[] {
  return slots(
    (draft.media ?? []).map((m) => {
      if (m.kind === 'video') return slot('video', [{ kind: 'video', url: m.url, w: m.w, h: m.h, duration_s: m.duration_s, watermark: false, source_quality: 'page_video' }]);
      const original = originalOf(m.url);
      // The page's width/height attributes are its display box (w=580 layout), not a file's size: unsized.
      return slot('image', [original ? { kind: 'image', url: original, watermark: false, source_quality: 'original_pic_item' } : undefined, { kind: 'image', url: m.url, watermark: false, source_quality: 'page_image' }]);
    }),
  );
}

export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A tieba thread\'s opening-floor pictures as uploaded (origin_src, or /forum/pic/item/ behind the page\'s scaled copy) and its video',
  params: detailAction.params,
  async resolve(ctx, params) {
    const { draft, content } = await readThread(ctx, params);
    const fromJson = fromFragments(content);
    return { draft, slots: fromJson.length ? fromJson : fromDraft(draft) };
  },
};
