import type { z } from 'zod';
import { JsonText } from '../../../shared/http/json-text';
import { openApiDocumentText } from '../../../shared/http/openapi-document';
import { route } from '../../../shared/http/route';
import { OpenApiDocumentView } from '../../../shared/views/openapi';

let document: JsonText<z.input<typeof OpenApiDocumentView>> | undefined;

/**
 * The API described as OpenAPI 3.1: the committed document, generated from the wiring and the handlers' own
 * schemas, answered as the text it is (0.9 MB of minified JSON: parsing and re-serializing it was most of a cold start).
 */
export const handler = route({ scope: null, workspace: false, public: true, response: OpenApiDocumentView }, async () => {
  document ??= new JsonText(openApiDocumentText());
  return document;
});
