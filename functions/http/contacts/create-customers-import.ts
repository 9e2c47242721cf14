import { route } from '../../../shared/http/route';
import { importWithUpload } from '../../../shared/views/imports';
import { requestImport } from '../../../shared/imports/imports';
import { CreateCustomersImport } from './schemas';

export const handler = route(
  { scope: 'contacts:write', body: CreateCustomersImport, status: 201, response: importWithUpload },
  async ({ body, tenant, now, unit }) => requestImport(unit, tenant, 'customers', { idProperty: body.idProperty }, body.columns ?? {}, now),
);
