import * as z from 'zod';
import { built } from '../domain/built';

const Record = /* @__PURE__ */ built(() => z.record(z.string(), z.unknown()));

/**
 * The public description of the API, answered as itself (no success wrapper): an OpenAPI 3.1 document
 * whose operations, schemas and webhooks are described by the OpenAPI specification, not repeated here.
 */
export const OpenApiDocumentView = /* @__PURE__ */ built(() =>
  z.strictObject({
    openapi: z.string().regex(/^3\.1\.\d+$/),
    info: z.strictObject({
      title: z.string(),
      version: z.string(),
      description: z.string().optional(),
      license: z.strictObject({ name: z.string(), identifier: z.string().optional() }).optional(),
    }),
    servers: z.array(z.strictObject({ url: z.string(), description: z.string().optional() })).optional(),
    tags: z.array(z.strictObject({ name: z.string(), description: z.string().optional() })).optional(),
    'x-tagGroups': z.array(z.strictObject({ name: z.string(), tags: z.array(z.string()) })).optional(),
    components: z
      .strictObject({
        schemas: Record,
        responses: Record,
        parameters: Record,
        examples: Record,
        requestBodies: Record,
        headers: Record,
        securitySchemes: Record,
      })
      .partial()
      .optional(),
    paths: Record.optional(),
    webhooks: Record.optional(),
  }),
);
