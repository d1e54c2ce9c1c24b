import type { MediaSigner } from './capability.js';

/** Builds the service-hosted URLs that stand in for origin media URLs in every result. */
export interface MediaUrlBuilder {
  image(origin: string): string;
  video(origin: string, platform: string, profile: string): string;
  preview(platform: string, nativeId: string): string;
}

/** With a signer, video URLs are capability URLs (exp and sig) that play without a bearer header. */
export function mediaUrlBuilder(publicUrl?: string, signer?: MediaSigner): MediaUrlBuilder {
  const base = publicUrl ? publicUrl.replace(/\/+$/, '') : '';
  return {
    image: (origin) => `${base}/v1/media?u=${encodeURIComponent(origin)}`,
    video: (origin, platform, profile) => {
      const url = `${base}/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=${encodeURIComponent(platform)}&profile=${encodeURIComponent(profile)}`;
      if (!signer) return url;
      const { exp, sig } = signer.sign(origin, platform, profile);
      return `${url}&exp=${exp}&sig=${sig}`;
    },
    preview: (platform, nativeId) => `${base}/v1/preview?platform=${encodeURIComponent(platform)}&id=${encodeURIComponent(nativeId)}`,
  };
}

/** Protocol-relative and http origin URLs are normalised to https where the CDN serves both. */
export function absoluteOrigin(url: string): string {
  if (url.startsWith('//')) return `https:${url}`;
  return url;
}
