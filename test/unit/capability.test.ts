import { describe, expect, it } from 'vitest';
import { MediaSigner } from '../../src/media/capability.js';
import { mediaUrlBuilder } from '../../src/media/urls.js';

const key = Buffer.alloc(32, 7);

describe('media capability URLs', () => {
  it('verify what they signed, refuse any change, and lapse after their expiry', () => {
    const signer = new MediaSigner(key);
    const { exp, sig } = signer.sign('https://cdn.example/v.mp4', 'weibo', 'default');
    expect(exp * 1000 - Date.now()).toBeGreaterThan(47 * 3600_000);
    expect(signer.verify('https://cdn.example/v.mp4', 'weibo', 'default', String(exp), sig)).toBe('ok');
    expect(signer.verify('https://cdn.example/w.mp4', 'weibo', 'default', String(exp), sig)).toBe('invalid');
    expect(signer.verify('https://cdn.example/v.mp4', 'weibo', 'other', String(exp), sig)).toBe('invalid');
    expect(signer.verify('https://cdn.example/v.mp4', 'weibo', 'default', String(exp + 1), sig)).toBe('invalid');
    expect(signer.verify('https://cdn.example/v.mp4', 'weibo', 'default', 'x', sig)).toBe('invalid');
    const later = new MediaSigner(key, () => Date.now() + 49 * 3600_000);
    expect(later.verify('https://cdn.example/v.mp4', 'weibo', 'default', String(exp), sig)).toBe('expired');
    expect(new MediaSigner(Buffer.alloc(32, 8)).verify('https://cdn.example/v.mp4', 'weibo', 'default', String(exp), sig)).toBe('invalid');
  });

  it('re-signs every video URL in a result text with a fresh expiry, leaving images alone', () => {
    const old = new MediaSigner(key, () => Date.now() - 40 * 3600_000);
    const urls = mediaUrlBuilder(undefined, old);
    const text = JSON.stringify({ items: [{ thumb: urls.image('https://cdn.example/a.jpg'), media: [{ url: urls.video('https://cdn.example/v.mp4?x=1&y=2', 'weibo', 'p 1') }] }] });
    const now = new MediaSigner(key);
    expect((now.earliestExpiry(text) ?? 0) * 1000).toBeLessThan(Date.now() + 24 * 3600_000);
    const fresh = now.resign(text);
    expect((now.earliestExpiry(fresh) ?? 0) * 1000).toBeGreaterThan(Date.now() + 47 * 3600_000);
    const url = new URL(JSON.parse(fresh).items[0].media[0].url, 'http://x');
    expect(now.verify(url.searchParams.get('u')!, url.searchParams.get('platform')!, url.searchParams.get('profile')!, url.searchParams.get('exp')!, url.searchParams.get('sig')!)).toBe('ok');
    expect(JSON.parse(fresh).items[0].thumb).toBe(urls.image('https://cdn.example/a.jpg'));
  });
});
