import { isReplayMiss } from './errors.js';

/**
 * Tries equivalent routes in turn, moving on only after a failure `canFallBack` accepts (an outage, an
 * unreadable answer, a missing recording). When every route fails, the first real failure is
 * reported; if all were replay misses, the first miss (it names the preferred URL).
 */
export async function firstAnswering<T>(routes: ReadonlyArray<() => Promise<T>>, canFallBack: (e: unknown) => boolean): Promise<T> {
  let firstMiss: unknown;
  let firstReal: unknown;
  for (const route of routes) {
    try {
      return await route();
    } catch (e) {
      if (!canFallBack(e)) throw e;
      if (isReplayMiss(e)) firstMiss ??= e;
      else firstReal ??= e;
    }
  }
  throw firstReal ?? firstMiss ?? new Error('no route was tried');
}
