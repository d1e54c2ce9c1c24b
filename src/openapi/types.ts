/** The slice of OpenAPI 3.1 this service's document uses; JSON Schema stays loosely typed. */
export type JsonSchema = Record<string, unknown>;

export interface MediaTypeObject {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

export interface HeaderObject {
  description?: string;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface RequestBodyObject {
  required?: boolean;
  description?: string;
  content: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security: Array<Record<string, string[]>>;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
  [extension: `x-${string}`]: unknown;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license?: { name: string; identifier?: string } };
  servers: Array<{ url: string; description?: string }>;
  security: Array<Record<string, string[]>>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, OperationObject>>;
  /** What the service sends to callers (OpenAPI 3.1): the callback_url notification. */
  webhooks?: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
  [extension: `x-${string}`]: unknown;
}
