/** HLS playlists name their variants and segments by URL: rewritten so every one also goes through the proxy. */
export const HLS_TYPE = /^(application\/vnd\.apple\.mpegurl|application\/x-mpegurl|audio\/mpegurl|audio\/x-mpegurl)\b/i;
export const HLS_MAX_BYTES = 1024 * 1024;

export function rewritePlaylist(text: string, playlistUrl: string, proxied: (absolute: string) => string): string {
  const abs = (ref: string) => {
    try {
      return proxied(new URL(ref, playlistUrl).toString());
    } catch {
      return ref;
    }
  };
  return text
    .split(/\r?\n/)
    .map((line) => {
      const t = line.trim();
      if (!t) return line;
      if (t.startsWith('#')) return line.replace(/URI="([^"]+)"/g, (_m, ref: string) => `URI="${abs(ref)}"`);
      return abs(t);
    })
    .join('\n');
}
