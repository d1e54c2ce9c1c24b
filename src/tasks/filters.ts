import type { Item } from '../domain/item.js';
import type { Params } from '../platforms/types.js';
import { dateRange, inRange } from './dates.js';

/** Server-side filters on items; items without the metadata a filter needs are dropped and counted. */
export interface ItemFilter {
  active: boolean;
  test(item: Item): boolean;
  warnings(): string[];
}

type Judge = { name: string; needs: string; judge(item: Item): boolean | undefined };

export function buildFilter(params: Params): ItemFilter {
  const judges: Judge[] = [];
  const media = params.media as string | undefined;
  if (media === 'video' || media === 'image') {
    judges.push({ name: 'media', needs: 'type', judge: (i) => i.type === media });
  }
  const minD = params.min_duration_s as number | undefined;
  const maxD = params.max_duration_s as number | undefined;
  if (minD !== undefined || maxD !== undefined) {
    judges.push({
      name: 'duration',
      needs: 'a duration',
      judge: (i) => (i.duration_s === undefined ? undefined : (minD === undefined || i.duration_s >= minD) && (maxD === undefined || i.duration_s <= maxD)),
    });
  }
  const orientation = params.orientation as string | undefined;
  if (orientation) {
    judges.push({
      name: 'orientation',
      needs: 'dimensions',
      judge: (i) => {
        const d = dims(i);
        return d ? orientationOf(d.w, d.h) === orientation : undefined;
      },
    });
  }
  const minW = params.min_width as number | undefined;
  const minH = params.min_height as number | undefined;
  if (minW !== undefined || minH !== undefined) {
    judges.push({
      name: 'size',
      needs: 'dimensions',
      judge: (i) => {
        const d = dims(i);
        return d ? (minW === undefined || d.w >= minW) && (minH === undefined || d.h >= minH) : undefined;
      },
    });
  }
  const range = dateRange(params);
  if (range) {
    judges.push({ name: 'date', needs: 'creation time', judge: (i) => (i.ts === undefined ? undefined : inRange(i.ts, range)) });
  }
  const unjudged = new Map<string, number>();
  return {
    active: judges.length > 0,
    test(item) {
      for (const j of judges) {
        const verdict = j.judge(item);
        if (verdict === undefined) {
          unjudged.set(j.needs, (unjudged.get(j.needs) ?? 0) + 1);
          return false;
        }
        if (!verdict) return false;
      }
      return true;
    },
    warnings() {
      return [...unjudged].map(([needs, n]) => `${n} item(s) dropped by a filter: the platform reported no ${needs} for them, so they could not be judged`);
    },
  };
}

function dims(item: Item): { w: number; h: number } | undefined {
  if (item.aspect) return { w: item.aspect.width, h: item.aspect.height };
  const m = item.media.find((x) => x.w && x.h);
  return m ? { w: m.w as number, h: m.h as number } : undefined;
}

export function orientationOf(w: number, h: number): 'landscape' | 'portrait' | 'square' {
  const r = w / h;
  if (r > 1.05) return 'landscape';
  if (r < 0.95) return 'portrait';
  return 'square';
}
