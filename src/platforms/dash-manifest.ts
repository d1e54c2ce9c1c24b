/*
 * The representations of a DASH manifest (MPD) as platforms inline them in their answers (Instagram's
 * video_dash_manifest, Facebook's dash manifest): one file per representation (BaseURL), no segment
 * templates. Read with regular expressions: the manifests are small and flat, and nothing here runs them.
 */

export interface Representation {
  kind: 'video' | 'audio';
  url: string;
  w?: number;
  h?: number;
  bandwidth?: number;
  mime?: string;
  codecs?: string;
  label?: string;
}

const attr = (tag: string, name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
const positive = (v: string | undefined): number | undefined => {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};
const unescapeXml = (s: string): string => s.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'");

export function dashRepresentations(manifest: unknown): Representation[] {
  if (typeof manifest !== 'string' || manifest.length > 2_000_000) return [];
  const out: Representation[] = [];
  for (const set of manifest.matchAll(/<AdaptationSet\b([^>]*)>([\s\S]*?)<\/AdaptationSet>/g)) {
    const setTag = set[1]!;
    for (const rep of set[2]!.matchAll(/<Representation\b([^>]*?)(?:\/>|>([\s\S]*?)<\/Representation>)/g)) {
      const tag = rep[1]!;
      const base = /<BaseURL>([^<]+)<\/BaseURL>/.exec(rep[2] ?? '')?.[1]?.trim();
      if (!base) continue;
      const url = unescapeXml(base);
      if (!/^https:\/\//i.test(url)) continue;
      const mime = attr(tag, 'mimeType') ?? attr(setTag, 'mimeType');
      const type = attr(setTag, 'contentType') ?? mime?.split('/')[0];
      if (type !== 'video' && type !== 'audio') continue;
      out.push({ kind: type, url, w: positive(attr(tag, 'width')), h: positive(attr(tag, 'height')), bandwidth: positive(attr(tag, 'bandwidth')), mime, codecs: attr(tag, 'codecs'), label: attr(tag, 'FBQualityLabel') });
    }
  }
  return out;
}
