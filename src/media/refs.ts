import { createHash } from 'node:crypto';
import type { Item } from '../domain/item.js';
import type { MediaRef } from '../store/types.js';

export const urlHash = (url: string) => createHash('sha256').update(url).digest('base64url');

/** The origin URL inside a service-hosted /v1/media URL. */
export function originOf(serviceUrl: string): string | undefined {
  const q = serviceUrl.indexOf('?');
  if (q < 0) return undefined;
  return new URLSearchParams(serviceUrl.slice(q + 1)).get('u') ?? undefined;
}

/** The platform's own id of an item (its id without the "source:" prefix). */
export const nativeIdOf = (item: Item): string => item.id.slice(item.id.indexOf(':') + 1);

/** The origin URL of an item's first video, if it has one. */
export function videoOrigin(item: Item): string | undefined {
  const video = item.media.find((m) => m.kind === 'video');
  return video && originOf(video.url);
}

/** Every media slot of the items, keyed by origin URL, for refreshing expired URLs later. */
export function mediaRefsOf(platform: string, profile: string, items: readonly Item[]): MediaRef[] {
  const refs: MediaRef[] = [];
  for (const item of items) {
    const nativeId = nativeIdOf(item);
    const add = (serviceUrl: string | undefined, slot: string, kind: 'video' | 'image') => {
      const origin = serviceUrl && originOf(serviceUrl);
      if (origin) refs.push({ url_hash: urlHash(origin), platform, native_id: nativeId, slot, profile, url: origin, kind });
    };
    add(item.thumb, 'thumb', 'image');
    item.media.forEach((m, i) => add(m.url, `media:${i}`, m.kind));
  }
  return refs;
}

/** The same slot in a freshly crawled item (by index, or the first media of the same kind). */
export function slotOrigin(item: Item, slot: string, kind?: 'video' | 'image'): string | undefined {
  if (slot === 'thumb') return item.thumb ? originOf(item.thumb) : undefined;
  const i = Number(slot.split(':')[1]);
  const m = item.media[i] && (!kind || item.media[i].kind === kind) ? item.media[i] : item.media.find((x) => !kind || x.kind === kind);
  return m ? originOf(m.url) : undefined;
}
