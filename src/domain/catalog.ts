import { z } from 'zod';

export const PARAM_TYPES = ['string', 'integer', 'number', 'boolean'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];

export const CatalogParamSchema = z.object({
  name: z.string(),
  type: z.enum(PARAM_TYPES),
  required: z.boolean(),
  default: z.unknown().optional(),
  description: z.string(),
  enum: z.array(z.string()).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  /** A string param that also takes a number (since/until: unix seconds or an ISO 8601 date). */
  accepts_number: z.boolean().optional(),
});
export type CatalogParam = z.infer<typeof CatalogParamSchema>;

export const CatalogEntrySchema = z.object({
  name: z.string(),
  group: z.string(),
  summary: z.string(),
  params: z.array(CatalogParamSchema),
  confirm: z.boolean().optional(),
  write: z.boolean().optional(),
});
export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;

export const CategorySchema = z.object({
  id: z.string(),
  name: z.string(),
  actions: z.array(z.enum(['hot', 'recommended'])),
});
export type Category = z.infer<typeof CategorySchema>;

export const AUTH_NEEDS = ['none', 'cookie', 'login'] as const;

/** GET /v1/capabilities: the catalog grouped by platform. */
export const CapabilitiesSchema = z.object({
  providers: z.array(
    z.object({
      source: z.string(),
      name: z.string(),
      region: z.string(),
      actions: z.array(z.string()),
      auth: z.enum(AUTH_NEEDS),
      write: z.boolean(),
      categories: z.boolean(),
    }),
  ),
});
export type Capabilities = z.infer<typeof CapabilitiesSchema>;

/** GET /v1/categories?source=X */
export const CategoriesSchema = z.object({ source: z.string(), categories: z.array(CategorySchema) });
export type Categories = z.infer<typeof CategoriesSchema>;
