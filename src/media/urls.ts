/** Builds the service-hosted URLs that stand in for origin media URLs in every result. */
export interface MediaUrlBuilder {
  image(origin: string): string;
  video(origin: string, platform: string, profile: string): string;
  preview(platform: string, nativeId: string): string;
}

export function mediaUrlBuilder(publicUrl?: string): MediaUrlBuilder {
  const base = publicUrl ? publicUrl.replace(/\/+$/, '') : '';
  return {
    image: (origin) => `${base}/v1/media?u=${encodeURIComponent(origin)}`,
    video: (origin, platform, profile) =>
      `${base}/v1/media?u=${encodeURIComponent(origin)}&kind=video&platform=${encodeURIComponent(platform)}&profile=${encodeURIComponent(profile)}`,
    preview: (platform, nativeId) => `${base}/v1/preview?platform=${encodeURIComponent(platform)}&id=${encodeURIComponent(nativeId)}`,
  };
}

/** Protocol-relative and http origin URLs are normalised to https where the CDN serves both. */
export function absoluteOrigin(url: string): string {
  if (url.startsWith('//')) return `https:${url}`;
  return url;
}
