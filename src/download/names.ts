const EXT: Record<string, string> = {
  'video/mp4': 'mp4', 'video/webm': 'webm', 'video/quicktime': 'mov', 'video/x-flv': 'flv', 'audio/mp4': 'm4a',
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'image/avif': 'avif', 'image/heic': 'heic',
};

export function extensionOf(mime: string): string {
  return EXT[mime.split(';')[0].trim().toLowerCase()] ?? 'bin';
}

/** A readable, safe file name: author, post id, position (when the post has several files), extension. */
export function fileName(author: string | undefined, nativeId: string, index: number, count: number, mime: string): string {
  const clean = (s: string) =>
    s
      .normalize('NFC')
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 60);
  const who = clean(author ?? '') || 'post';
  const id = clean(nativeId).slice(0, 40) || 'item';
  return `${who}_${id}${count > 1 ? `_${index + 1}` : ''}.${extensionOf(mime)}`;
}

/** Content-Disposition with an ASCII fallback and the exact name in RFC 6266 filename*. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
