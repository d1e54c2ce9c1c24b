import type { CatalogIndex } from '../../platforms/catalog.js';
import type { RouteDoc } from '../route-doc.js';
import { batchDocs } from './batches.js';
import { catalogDocs } from './catalog.js';
import { exportDocs } from './exports.js';
import { mediaDocs } from './media.js';
import { fileDocs } from './files.js';
import { operatorDocs } from './operator.js';
import { serviceDocs } from './service.js';
import { taskDocs } from './tasks.js';
import { webhookDocs } from './webhooks.js';
import { watchDocs } from './watches.js';

/** Every documented route. A new route gets its entry here (or in one of these lists), or the coverage test names it. */
export function routeDocs(catalog: CatalogIndex): RouteDoc[] {
  return [...taskDocs(catalog), ...exportDocs(), ...batchDocs(), ...webhookDocs(), ...watchDocs(), ...catalogDocs(), ...mediaDocs(), ...fileDocs(), ...operatorDocs(), ...serviceDocs()];
}

/**
 * Registered routes that are not API operations: the reference page's and the console's own script and
 * style files, and /console/ (the same page as /console). Kept short on purpose; the coverage test accepts
 * these and nothing else undocumented.
 */
export const UNDOCUMENTED_ROUTES = ['GET /docs/:asset', 'GET /console/', 'GET /console/:file'] as const;
