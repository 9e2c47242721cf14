import { route } from '../../../shared/http/route';
import { openApiBytes } from '../../../shared/http/openapi-document';
import { OpenApiDocumentView } from '../../../shared/views/openapi';

let document: unknown;

/** The API described as OpenAPI 3.1: the committed document, generated from the wiring and the handlers' own schemas. */
export const handler = route(
  { scope: null, workspace: false, public: true, response: OpenApiDocumentView },
  () => (document ??= JSON.parse(openApiBytes().toString('utf8'))),
);
