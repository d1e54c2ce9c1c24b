export { CrawlerClient, isFinished } from './client.js';
export { CrawlerError } from './errors.js';
export * from './types.js';
