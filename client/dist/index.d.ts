export { CrawlerClient, isFinished } from './client.js';
export type { ClientOptions, ListQuery, SubmitOptions, Submitted, TaskInput, WaitOptions } from './client.js';
export { CrawlerError } from './errors.js';
export type { ClientErrorCode } from './errors.js';
export type { FetchLike } from './http.js';
export type { RunOptions } from './follow.js';
export type { StreamOptions } from './stream.js';
export type { Page, WalkOptions, WalkProgress } from './walk.js';
export * from './types.js';
