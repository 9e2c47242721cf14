import { route } from '../../../shared/http/route';
import { OpenApiDocumentView } from '../../../shared/views/openapi';
import { openApiDocument } from '../../../infra/docs/document';

/** The API described as OpenAPI 3.1, generated from the wiring and the handlers' own schemas. */
export const handler = route({ scope: null, workspace: false, public: true, response: OpenApiDocumentView }, () => openApiDocument());
