import type { Item, Media } from '../domain/item.js';
import type { MediaUrlBuilder } from '../media/urls.js';
import { absoluteOrigin } from '../media/urls.js';
import type { ItemDraft, PlatformAdapter } from '../platforms/types.js';

/** Draft → Item: prefixes ids, derives author_url, rewrites every origin URL to the service-hosted form. */
export function normalizeItem(adapter: PlatformAdapter, draft: ItemDraft, urls: MediaUrlBuilder, profile: string): Item {
  const media: Media[] = (draft.media ?? [])
    .filter((m) => typeof m.url === 'string' && /^(https?:)?\/\//.test(m.url))
    .map((m) => {
      const origin = absoluteOrigin(m.url);
      const url = m.kind === 'video' ? urls.video(origin, adapter.id, profile) : urls.image(origin);
      return compact({ kind: m.kind, url, w: posInt(m.w), h: posInt(m.h), duration_s: nonNeg(m.duration_s) }) as Media;
    });
  const item: Item = {
    id: `${adapter.id}:${draft.native_id}`,
    type: draft.type,
    provider: adapter.id,
    title: nonEmpty(draft.title),
    text: draft.text,
    author: nonEmpty(draft.author),
    author_id: nonEmpty(draft.author_id),
    author_handle: nonEmpty(draft.author_handle),
    author_url: adapter.authorUrl({ id: draft.author_id, handle: draft.author_handle }),
    url: draft.url,
    thumb: draft.thumb && /^(https?:)?\/\//.test(draft.thumb) ? urls.image(absoluteOrigin(draft.thumb)) : undefined,
    media,
    ts: safeInt(draft.ts),
    duration_s: nonNeg(draft.duration_s),
    aspect: draft.aspect && draft.aspect.width > 0 && draft.aspect.height > 0 ? draft.aspect : undefined,
    stats: compact({ ...draft.stats }),
    provenance: 'live',
  };
  return compact(item) as Item;
}

function nonEmpty(s?: string): string | undefined {
  return s === undefined || s === '' ? undefined : s;
}
function posInt(n?: number): number | undefined {
  const v = typeof n === 'number' ? Math.round(n) : undefined;
  return Number.isSafeInteger(v) && (v as number) > 0 ? v : undefined;
}
/** A whole number JSON can carry exactly; platform garbage such as 1e300 is "not reported", not a value. */
function safeInt(n?: number): number | undefined {
  if (typeof n !== 'number' || !Number.isFinite(n)) return undefined;
  const v = Math.trunc(n);
  return Number.isSafeInteger(v) ? v : undefined;
}
function nonNeg(n?: number): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Drops undefined fields so results serialize without noise. */
export function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}
