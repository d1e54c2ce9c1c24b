import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../src/platforms/catalog.js';
import { Registry } from '../../src/platforms/registry.js';

describe('mastodon catalog entries', () => {
  const catalog = buildCatalog(new Registry());
  const entries = catalog.entries.filter((e) => e.group === 'mastodon');

  it('lists every action the adapter does, writes flagged', () => {
    expect(entries.map((e) => e.name).sort()).toEqual(
      ['comment.create', 'comments', 'delete', 'detail', 'download', 'hot', 'post.create', 'posts', 'recommended', 'search', 'trending', 'user'].map((a) => `mastodon.${a}`).sort(),
    );
    for (const e of entries) {
      const write = ['mastodon.post.create', 'mastodon.comment.create', 'mastodon.delete'].includes(e.name);
      expect(Boolean(e.write), e.name).toBe(write);
      expect(Boolean(e.confirm), e.name).toBe(write);
    }
  });

  it('every action takes params.instance, defaulting to mastodon.social', () => {
    for (const e of entries) {
      expect(e.params.find((p) => p.name === 'instance'), e.name).toMatchObject({ type: 'string', required: false, default: 'mastodon.social' });
    }
  });

  it('search has type statuses|accounts; recommended has the timeline tabs; posts walks', () => {
    const get = (a: string) => entries.find((e) => e.name === `mastodon.${a}`)!;
    expect(get('search').params.find((p) => p.name === 'type')).toMatchObject({ enum: ['statuses', 'accounts'], default: 'statuses' });
    expect(get('recommended').params.find((p) => p.name === 'category')).toMatchObject({ enum: ['local', 'federated', 'home'], default: 'local' });
    expect(get('hot').params.find((p) => p.name === 'category')).toBeUndefined();
    expect(get('posts').params.some((p) => p.name === 'max_items')).toBe(true);
    expect(get('comment.create').params.filter((p) => p.required).map((p) => p.name)).toEqual(['target', 'text']);
    expect(get('delete').params.filter((p) => p.required).map((p) => p.name)).toEqual(['target']);
  });
});
