import { Ajv2020 } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from '../../src/openapi/types.js';

const DOC_ID = 'https://openapi.test/document.json';

/** Validates values against the schemas of an OpenAPI document (components and response bodies) with ajv. */
export function schemaChecker(doc: OpenApiDocument) {
  // OpenAPI keywords (discriminator, x-…) are annotations to ajv, not errors.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: DOC_ID, components: doc.components });
  const anchored = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`)) as object;
  const paths = Object.keys(doc.paths).map((p) => ({ p, re: new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

  const errorsOf = (schema: unknown, value: unknown): string[] => {
    const validate = ajv.compile(anchored(schema));
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  };

  return {
    /** Errors of value against components.schemas[name]; empty when it conforms. */
    component(name: string, value: unknown): string[] {
      if (!doc.components.schemas[name]) return [`no component ${name}`];
      return errorsOf({ $ref: `#/components/schemas/${name}` }, value);
    },
    /** Errors of a real answer against the JSON schema documented for that method, URL and status. */
    response(method: string, url: string, status: number, body: unknown): string[] {
      const path = new URL(url, 'http://x').pathname;
      // A literal path (/v1/tasks/batch) and a templated one (/v1/tasks/{id}) may both match: take one with this method.
      const match = paths.find((x) => x.re.test(path) && doc.paths[x.p][method.toLowerCase()]) ?? paths.find((x) => x.re.test(path));
      const op = match && doc.paths[match.p][method.toLowerCase()];
      if (!op) return [`${method} ${path} is not documented`];
      const res = op.responses[String(status)];
      if (!res) return [`${method} ${match.p} documents no ${status} answer (it has ${Object.keys(op.responses).join(', ')})`];
      const schema = res.content?.['application/json']?.schema;
      if (!schema) return [`${method} ${match.p} ${status} has no JSON schema`];
      return errorsOf(schema, body);
    },
  };
}
