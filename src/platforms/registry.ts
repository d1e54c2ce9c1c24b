import type { PlatformAdapter } from './types.js';
import { weibo } from './weibo/index.js';
import { bilibili } from './bilibili/index.js';
import { mastodon } from './mastodon/index.js';
import { telegram } from './telegram/index.js';
import { bluesky } from './bluesky/index.js';
import { youtube } from './youtube/index.js';
import { reddit } from './reddit/index.js';
import { douyin } from './douyin/index.js';
import { toutiao } from './toutiao/index.js';
import { tiktok } from './tiktok/index.js';
import { kuaishou } from './kuaishou/index.js';
import { zhihu } from './zhihu/index.js';
import { xiaohongshu } from './xiaohongshu/index.js';
import { tieba } from './tieba/index.js';
import { pinterest } from './pinterest/index.js';
import { facebook } from './facebook/index.js';
import { threads } from './threads/index.js';
import { instagram } from './instagram/index.js';
import { twitter } from './twitter/index.js';

/** Every platform the service knows; the catalog, allowlist and replay rules are built from this list. */
export const ADAPTERS: readonly PlatformAdapter[] = [weibo, bluesky, telegram, mastodon, bilibili, youtube, reddit, douyin, toutiao, tiktok, kuaishou, zhihu, xiaohongshu, tieba, pinterest, facebook, threads, instagram, twitter];

export class Registry {
  private readonly byId = new Map<string, PlatformAdapter>();
  constructor(readonly adapters: readonly PlatformAdapter[] = ADAPTERS) {
    for (const a of adapters) {
      this.byId.set(a.id, a);
      for (const alias of a.aliases ?? []) this.byId.set(alias, a);
    }
  }
  get(source: string): PlatformAdapter | undefined {
    return this.byId.get(source.toLowerCase());
  }
  /** Adapter whose API hosts include this host (for replay rules). */
  forHost(host: string): PlatformAdapter | undefined {
    const h = host.toLowerCase();
    return this.adapters.find((a) => [...a.hosts, ...a.mediaHosts].some((p) => (p.startsWith('.') ? h.endsWith(p) : h === p)));
  }
}
