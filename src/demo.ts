/** The tasks the demo banner suggests; a test runs each against ./sandbox so the banner never lies. */
export const DEMO_EXAMPLES: Array<{ source: string; action: string; params: Record<string, unknown> }> = [
  { source: 'weibo', action: 'posts', params: { query: '6279793937', limit: 5 } },
  { source: 'weibo', action: 'detail', params: { query: '5152381730717912' } },
  { source: 'bilibili', action: 'search', params: { query: '洛天依', limit: 5 } },
  { source: 'reddit', action: 'comments', params: { query: 'https://www.reddit.com/r/MechanicalKeyboards/comments/1kq4x1e/' } },
  { source: 'bluesky', action: 'detail', params: { query: 'https://bsky.app/profile/bsky.app/post/3lbaafjknk22b' } },
  { source: 'bluesky', action: 'posts', params: { query: '@bsky.app', limit: 5 } },
  { source: 'mastodon', action: 'trending', params: {} },
  { source: 'telegram', action: 'posts', params: { query: 'harborweather', limit: 5 } },
  { source: 'douyin', action: 'search', params: { query: '旅行', limit: 5 } },
  { source: 'tiktok', action: 'search', params: { query: 'harbor cooking', limit: 5 } },
  { source: 'kuaishou', action: 'search', params: { query: '美食', limit: 5 } },
  { source: 'toutiao', action: 'hot', params: { limit: 5 } },
  { source: 'xiaohongshu', action: 'detail', params: { query: '6745c0a1000000000703d1e1' } },
  { source: 'zhihu', action: 'search', params: { query: '咖啡', limit: 3 } },
  { source: 'tieba', action: 'posts', params: { query: '沙盒旅行', limit: 3 } },
];
