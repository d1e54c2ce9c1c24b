import { z } from 'zod';
import { CapabilitiesSchema, CatalogEntrySchema, CategoriesSchema, CategorySchema } from '../domain/catalog.js';
import { BatchAcceptedSchema, BatchRetrySchema, BatchSchema, BatchSubmitSchema } from '../domain/batch.js';
import { ErrorBodySchema } from '../domain/errors.js';
import { DownloadFileMetaSchema, DownloadFileSchema, DownloadResultSchema } from '../domain/download.js';
import { HealthSchema } from '../domain/health.js';
import { ItemSchema, MediaSchema, PreviewSchema } from '../domain/item.js';
import { MediaErrorSchema, PreviewRenderingSchema, PreviewUnavailableSchema, PreviewWarmResultSchema } from '../domain/media.js';
import {
  LoginCancelledSchema,
  LoginSchema,
  ProfileCheckSchema,
  ProfileDeletedSchema,
  ProfileListSchema,
  ProfileSchema,
  TokenCreatedSchema,
  TokenInfoSchema,
  TokenListSchema,
  TokenRevokedSchema,
} from '../domain/operator.js';
import { AuthorSchema, CommentSchema, CommentsResultSchema, CreatorResultSchema, EnvelopeSchema, TrendResultSchema, TrendSchema, WriteResultSchema } from '../domain/results.js';
import { NeedsConfirmationSchema, ProgressSchema, TaskAcceptedSchema, TaskListSchema, TaskSchema, TaskSubmitSchema, TaskSummarySchema } from '../domain/task.js';
import { LoginInputBodySchema, LoginStartBodySchema } from '../api/routes/logins.js';
import { ProfileStoreBodySchema, TokenCreateBodySchema } from '../api/routes/operator.js';
import { PreviewWarmBodySchema } from '../api/routes/preview.js';
import { WebhookLogSchema, WebhookNotificationSchema, WebhookSecretSchema } from '../webhooks/schemas.js';
import type { JsonSchema } from './types.js';
import { WatchCreateBodySchema, WatchDeletedSchema, WatchListSchema, WatchPatchBodySchema, WatchRunInfoSchema, WatchRunSchema, WatchSchema } from '../domain/watch.js';

/** Every result shape a task can carry, keyed on the action's shape (spec: shapes A to E). */
export const RESULT_SHAPES = {
  items: { letter: 'A', component: 'Envelope', schema: EnvelopeSchema },
  comments: { letter: 'B', component: 'CommentsResult', schema: CommentsResultSchema },
  creator: { letter: 'C', component: 'CreatorResult', schema: CreatorResultSchema },
  trends: { letter: 'D', component: 'TrendResult', schema: TrendResultSchema },
  write: { letter: 'E', component: 'WriteResult', schema: WriteResultSchema },
  // Shape A with the post's one item, plus the stored files.
  download: { letter: 'A', component: 'DownloadResult', schema: DownloadResultSchema },
} as const;

const TaskDocSchema = TaskSchema.extend({
  result: z
    .union(Object.values(RESULT_SHAPES).map((s) => s.schema))
    .optional()
    .describe('present when status is succeeded; its shape is keyed on the action (x-result-shape of each TaskRequest.* schema)'),
});

const ErrorSchema = z.object({ ok: z.literal(false), error: ErrorBodySchema }).describe('every error answer: branch on error.code, never on message');

/** Answers, as the service sends them: closed objects, so a real answer with an undocumented field fails validation. */
const RESPONSES = {
  Error: ErrorSchema,
  ErrorBody: ErrorBodySchema,
  Task: TaskDocSchema,
  TaskAccepted: TaskAcceptedSchema,
  TaskList: TaskListSchema,
  BatchAccepted: BatchAcceptedSchema,
  Batch: BatchSchema,
  BatchRetry: BatchRetrySchema,
  TaskSummary: TaskSummarySchema,
  Progress: ProgressSchema,
  NeedsConfirmation: NeedsConfirmationSchema,
  Envelope: EnvelopeSchema,
  Item: ItemSchema,
  Media: MediaSchema,
  Preview: PreviewSchema,
  CommentsResult: CommentsResultSchema,
  Comment: CommentSchema,
  CreatorResult: CreatorResultSchema,
  Author: AuthorSchema,
  TrendResult: TrendResultSchema,
  Trend: TrendSchema,
  WriteResult: WriteResultSchema,
  DownloadResult: DownloadResultSchema,
  DownloadFile: DownloadFileSchema,
  DownloadFileMeta: DownloadFileMetaSchema,
  CatalogEntry: CatalogEntrySchema,
  Capabilities: CapabilitiesSchema,
  Category: CategorySchema,
  Categories: CategoriesSchema,
  Profile: ProfileSchema,
  ProfileList: ProfileListSchema,
  ProfileCheck: ProfileCheckSchema,
  ProfileDeleted: ProfileDeletedSchema,
  Token: TokenInfoSchema,
  TokenList: TokenListSchema,
  TokenCreated: TokenCreatedSchema,
  TokenRevoked: TokenRevokedSchema,
  Login: LoginSchema,
  LoginCancelled: LoginCancelledSchema,
  Health: HealthSchema,
  MediaError: MediaErrorSchema,
  PreviewRendering: PreviewRenderingSchema,
  PreviewUnavailable: PreviewUnavailableSchema,
  PreviewWarmResult: PreviewWarmResultSchema,
  WebhookLog: WebhookLogSchema,
  WebhookSecret: WebhookSecretSchema,
  WebhookNotification: WebhookNotificationSchema,
  Watch: WatchSchema,
  WatchList: WatchListSchema,
  WatchDeleted: WatchDeletedSchema,
  WatchRun: WatchRunSchema,
  WatchRunInfo: WatchRunInfoSchema,
} as const;

/** Request bodies, as the handlers accept them (defaults make fields optional). */
const REQUESTS = {
  TaskRequest: TaskSubmitSchema.describe('the generic form: any catalog source (aliases and any letter case accepted) and action; params are checked against the catalog entry'),
  ProfileStoreRequest: ProfileStoreBodySchema,
  TokenCreateRequest: TokenCreateBodySchema,
  PreviewWarmRequest: PreviewWarmBodySchema,
  BatchSubmit: BatchSubmitSchema,
  LoginStartRequest: LoginStartBodySchema,
  LoginInputRequest: LoginInputBodySchema,
  WatchCreateRequest: WatchCreateBodySchema,
  WatchPatchRequest: WatchPatchBodySchema,
} as const;

export type ComponentName = keyof typeof RESPONSES | keyof typeof REQUESTS;

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) of one standalone zod schema. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function convert(named: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  // A registry of its own per call: nothing module-wide, and each named schema nested in another becomes a $ref.
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, { target: 'draft-2020-12', io, unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }).schemas;
  const cleaned: Record<string, JsonSchema> = {};
  for (const [id, s] of Object.entries(out)) {
    const { $schema: _s, $id: _i, ...rest } = s as JsonSchema;
    cleaned[id] = rest;
  }
  return cleaned;
}

/** components.schemas: every domain shape and route body, generated from the zod schemas the code uses. */
export function componentSchemas(): Record<string, JsonSchema> {
  return { ...convert(RESPONSES, 'output'), ...convert(REQUESTS, 'input') };
}
