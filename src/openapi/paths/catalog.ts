import { CategoriesQuerySchema } from '../../api/routes/catalog.js';
import { json } from '../responses.js';
import type { RouteDoc } from '../route-doc.js';
import { ref } from '../schemas.js';

export function catalogDocs(): RouteDoc[] {
  return [
    {
      method: 'GET',
      path: '/v1/task-sources',
      access: 'read',
      tag: 'Catalog',
      summary: 'Every source.action that exists, with its params',
      description: 'The catalog is authoritative: an entry that is absent does not exist (submitting it is 404 unsupported). Write verbs carry `write` and `confirm`.',
      responses: { 200: { description: 'catalog entries', content: { 'application/json': { schema: { type: 'array', items: ref('CatalogEntry') } } } } },
    },
    {
      method: 'GET',
      path: '/v1/capabilities',
      access: 'read',
      tag: 'Catalog',
      summary: 'The catalog grouped by platform',
      responses: { 200: json('Capabilities', 'one provider per platform, with its actions') },
    },
    {
      method: 'GET',
      path: '/v1/categories',
      access: 'read',
      tag: 'Catalog',
      summary: "A platform's feed tabs (params.category of hot and recommended)",
      query: CategoriesQuerySchema,
      responses: { 200: json('Categories', 'the tabs the platform offers (empty when it has none)') },
      errors: ['invalid_request', { code: 'unsupported', status: 404, when: 'unknown source' }],
    },
  ];
}
