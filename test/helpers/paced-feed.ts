import type { ItemsAction, PlatformAdapter } from '../../src/platforms/types.js';

/**
 * The fake platform with slow pages, for callers that must watch a walk in progress (progress
 * events, a progress bar, a cancel in the middle). A posts or search query `paced-<ms>-<name>` waits
 * <ms> before each page (ended at once by a cancel); any other query is as fast as the fake.
 */
export function pacedFeed(fake: PlatformAdapter): PlatformAdapter {
  const slow = (action: ItemsAction): ItemsAction => ({
    ...action,
    async page(ctx, params, cursor) {
      const m = /^paced-(\d+)-/.exec(String(params.query ?? ''));
      if (m) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, Number(m[1]));
          ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason)), { once: true });
        });
      }
      return action.page(ctx, params, cursor);
    },
  });
  return { ...fake, actions: { ...fake.actions, posts: slow(fake.actions.posts as ItemsAction), search: slow(fake.actions.search as ItemsAction) } };
}
