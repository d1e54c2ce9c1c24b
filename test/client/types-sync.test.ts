import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as C from '../../client/src/types.js';
import type { CatalogEntry, CatalogParam, Category } from '../../src/domain/catalog.js';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../../src/domain/errors.js';
import type { Author, Comment, CommentsResult, CreatorResult, Envelope, ResultSource, Trend, TrendResult, WriteResult } from '../../src/domain/results.js';
import type { Item, Media, Preview, Stats } from '../../src/domain/item.js';
import { ACTIONS, TASK_STATUSES, type ActionName, type Progress, type Task, type TaskStatus } from '../../src/domain/task.js';

/*
 * The client's hand-written types against the server's zod-inferred ones, both ways: a field added,
 * dropped, renamed or retyped on either side fails `tsc --noEmit` (and vitest's typecheck) here.
 */
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
function same<A, B>(ok: Mutual<A, B>): Mutual<A, B> {
  return ok;
}

describe('client types match the server schemas', () => {
  it('error codes and bodies', () => {
    same<C.ErrorCode, ErrorCode>(true);
    same<C.ErrorBody, ErrorBody>(true);
    same<C.ResultSource, ResultSource>(true);
    const codes: readonly C.ErrorCode[] = ERROR_CODES;
    expect(codes.length).toBe(11);
  });

  it('items and their parts', () => {
    same<C.Media, Media>(true);
    same<C.Preview, Preview>(true);
    same<C.Stats, Stats>(true);
    same<C.Item, Item>(true);
  });

  it('the five result shapes', () => {
    same<C.Envelope, Envelope>(true);
    same<C.Comment, Comment>(true);
    same<C.CommentsResult, CommentsResult>(true);
    same<C.Author, Author>(true);
    same<C.CreatorResult, CreatorResult>(true);
    same<C.Trend, Trend>(true);
    same<C.TrendResult, TrendResult>(true);
    same<C.WriteResult, WriteResult>(true);
  });

  it('tasks, statuses, actions, progress and the catalog', () => {
    same<C.Task, Task>(true);
    same<C.TaskStatus, TaskStatus>(true);
    same<C.Action, ActionName>(true);
    same<C.Progress, Progress>(true);
    same<C.CatalogEntry, CatalogEntry>(true);
    same<C.CatalogParam, CatalogParam>(true);
    same<C.Category, Category>(true);
    // The runtime lists the server validates against are the ones the client's unions spell out.
    const statuses: readonly C.TaskStatus[] = TASK_STATUSES;
    const actions: readonly C.Action[] = ACTIONS;
    expect([statuses.length, actions.length]).toEqual([5, 12]);
  });

  it('results are typed by action', () => {
    expectTypeOf<C.ResultOf<'search'>>().toEqualTypeOf<C.Envelope>();
    expectTypeOf<C.ResultOf<'detail'>>().toEqualTypeOf<C.Envelope>();
    expectTypeOf<C.ResultOf<'comments'>>().toEqualTypeOf<C.CommentsResult>();
    expectTypeOf<C.ResultOf<'user'>>().toEqualTypeOf<C.CreatorResult>();
    expectTypeOf<C.ResultOf<'trending'>>().toEqualTypeOf<C.TrendResult>();
    expectTypeOf<C.ResultOf<'post.create'>>().toEqualTypeOf<C.WriteResult>();
    expectTypeOf<C.ItemOf<'posts'>>().toEqualTypeOf<C.Item>();
    expectTypeOf<C.ItemOf<'comments'>>().toEqualTypeOf<C.Comment>();
    const t = { action: 'comments' } as C.AnyTask;
    if (t.action === 'comments') expectTypeOf(t.result).toEqualTypeOf<C.CommentsResult | undefined>();
    expect(t.action).toBe('comments');
  });
});
