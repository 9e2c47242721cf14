import { wiring } from '../wiring';
import { loadRouteHandlers } from '../wiring/route-handlers';
import { buildOpenApi, type OpenApiDocument } from './openapi';

let built: Promise<OpenApiDocument> | undefined;

/** The document for the wiring as deployed, built once per container. */
export const openApiDocument = (): Promise<OpenApiDocument> => (built ??= loadRouteHandlers(wiring.routes).then(buildOpenApi));
