import { describe, expect, it } from 'vitest';
import { checkMediaUrl, policyFor } from '../../src/media/guard.js';
import { ADAPTERS } from '../../src/platforms/registry.js';

describe('CDN hosts shared by several platforms', () => {
  const policy = policyFor(ADAPTERS);
  const u = 'https://scontent-lhr8-2.cdninstagram.com/o1/v/t16/f2/m86/clip.mp4';
  it('a video URL belongs to the platform that handed it out when that platform declares the host', async () => {
    for (const p of ['instagram', 'threads']) expect((await checkMediaUrl(u, policy, p)).owner.id).toBe(p);
    expect((await checkMediaUrl('https://video-lhr8-1.xx.fbcdn.net/v/t42/clip.mp4', policy, 'facebook')).owner.id).toBe('facebook');
  });
  it('a platform that does not declare the host gets the host’s own owner (and the proxy refuses its cookies there)', async () => {
    expect(['instagram', 'threads', 'facebook']).toContain((await checkMediaUrl(u, policy, 'weibo')).owner.id);
    await expect(checkMediaUrl('https://evil.example/x.mp4', policy, 'instagram')).rejects.toThrow(/not a known platform CDN host/);
  });
});
