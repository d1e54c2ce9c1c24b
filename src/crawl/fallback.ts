import { isReplayMiss } from './errors.js';

/**
 * Tries equivalent routes in turn, moving on after a failure `canFallBack` accepts (an outage, an
 * unreadable answer, a missing recording) or when a route answers undefined (it honestly found nothing
 * where a later route may find it); the last route's answer stands. When every route fails, the first
 * real failure is reported; if all were replay misses, the first miss (it names the preferred URL).
 */
export async function firstAnswering<T>(routes: ReadonlyArray<() => Promise<T | undefined>>, canFallBack: (e: unknown) => boolean): Promise<T> {
  let firstMiss: unknown;
  let firstReal: unknown;
  for (let i = 0; i < routes.length; i++) {
    try {
      const got = await routes[i]();
      if (got !== undefined || i === routes.length - 1) return got as T;
    } catch (e) {
      if (!canFallBack(e)) throw e;
      if (isReplayMiss(e)) firstMiss ??= e;
      else firstReal ??= e;
    }
  }
  throw firstReal ?? firstMiss ?? new Error('no route was tried');
}
