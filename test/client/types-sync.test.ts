import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as C from '../../client/src/types.js';
import type { CatalogEntry, CatalogParam, Category } from '../../src/domain/catalog.js';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../../src/domain/errors.js';
import type { Author, Comment, CommentsResult, CreatorResult, Envelope, ResultSource, Trend, TrendResult, WriteResult } from '../../src/domain/results.js';
import type { Item, Media, Preview, Stats } from '../../src/domain/item.js';
import type { DownloadFile, DownloadResult } from '../../src/domain/download.js';
import { ACTIONS, TASK_STATUSES, type ActionName, type Progress, type Task, type TaskStatus } from '../../src/domain/task.js';
import type { z } from 'zod';
import type { BatchAcceptedSchema, BatchRetrySchema, BatchSchema } from '../../src/domain/batch.js';
import type { WatchCreateBodySchema, WatchListSchema, WatchPatchBodySchema, WatchSchema } from '../../src/domain/watch.js';

/*
 * The client's hand-written types against the server's zod-inferred ones: each pair must be the same
 * type, deeply (assignable both ways, and the same keys, optional ones included). A field added,
 * dropped, renamed, made optional or retyped on either side fails `tsc --noEmit` here.
 */

describe('client types match the server schemas', () => {
  it('error codes and bodies', () => {
    expectTypeOf<C.ErrorCode>().toEqualTypeOf<ErrorCode>();
    expectTypeOf<C.ErrorBody>().toEqualTypeOf<ErrorBody>();
    expectTypeOf<C.ResultSource>().toEqualTypeOf<ResultSource>();
    const codes: readonly C.ErrorCode[] = ERROR_CODES;
    expect(codes.length).toBe(11);
  });

  it('items and their parts', () => {
    expectTypeOf<C.Media>().toEqualTypeOf<Media>();
    expectTypeOf<C.Preview>().toEqualTypeOf<Preview>();
    expectTypeOf<C.Stats>().toEqualTypeOf<Stats>();
    expectTypeOf<C.Item>().toEqualTypeOf<Item>();
  });

  it('the five result shapes', () => {
    expectTypeOf<C.Envelope>().toEqualTypeOf<Envelope>();
    expectTypeOf<C.Comment>().toEqualTypeOf<Comment>();
    expectTypeOf<C.CommentsResult>().toEqualTypeOf<CommentsResult>();
    expectTypeOf<C.Author>().toEqualTypeOf<Author>();
    expectTypeOf<C.CreatorResult>().toEqualTypeOf<CreatorResult>();
    expectTypeOf<C.Trend>().toEqualTypeOf<Trend>();
    expectTypeOf<C.TrendResult>().toEqualTypeOf<TrendResult>();
    expectTypeOf<C.WriteResult>().toEqualTypeOf<WriteResult>();
    expectTypeOf<C.DownloadFile>().toEqualTypeOf<DownloadFile>();
    expectTypeOf<C.DownloadResult>().toEqualTypeOf<DownloadResult>();
    expectTypeOf<C.ResultOf<'download'>>().toEqualTypeOf<C.DownloadResult>();
  });

  it('watches and batches', () => {
    expectTypeOf<C.Watch>().toEqualTypeOf<z.infer<typeof WatchSchema>>();
    expectTypeOf<C.WatchList>().toEqualTypeOf<z.infer<typeof WatchListSchema>>();
    expectTypeOf<C.WatchInput>().toEqualTypeOf<z.infer<typeof WatchCreateBodySchema>>();
    expectTypeOf<C.WatchPatch>().toEqualTypeOf<z.infer<typeof WatchPatchBodySchema>>();
    expectTypeOf<C.BatchAccepted>().toEqualTypeOf<z.infer<typeof BatchAcceptedSchema>>();
    expectTypeOf<C.Batch>().toEqualTypeOf<z.infer<typeof BatchSchema>>();
    expectTypeOf<C.BatchRetry>().toEqualTypeOf<z.infer<typeof BatchRetrySchema>>();
  });

  it('tasks, statuses, actions, progress and the catalog', () => {
    expectTypeOf<C.Task>().toEqualTypeOf<Task>();
    expectTypeOf<C.TaskStatus>().toEqualTypeOf<TaskStatus>();
    expectTypeOf<C.Action>().toEqualTypeOf<ActionName>();
    expectTypeOf<C.Progress>().toEqualTypeOf<Progress>();
    expectTypeOf<C.CatalogEntry>().toEqualTypeOf<CatalogEntry>();
    expectTypeOf<C.CatalogParam>().toEqualTypeOf<CatalogParam>();
    expectTypeOf<C.Category>().toEqualTypeOf<Category>();
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
