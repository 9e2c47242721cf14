import { wiring } from '../../functions/wiring';
import { loadRouteHandlers } from '../../functions/wiring/route-handlers';
import { buildOpenApi, type OpenApiDocument } from './openapi';

let built: Promise<OpenApiDocument> | undefined;

/** The document for the wiring as deployed, built once per container. */
export const openApiDocument = (): Promise<OpenApiDocument> => (built ??= loadRouteHandlers(wiring.routes).then(buildOpenApi));

/** The document as committed at the repository root (`openapi.json`), byte for byte. */
export const openApiText = async (): Promise<string> => `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
