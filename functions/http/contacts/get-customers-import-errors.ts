import { route } from '../../../shared/http/route';
import { FileResponse } from '../../../shared/http/file-response';
import { importErrorsCsv } from '../../../shared/imports/read';
import { IdParams } from './schemas';

export const handler = route({ scope: 'contacts:read', params: IdParams, produces: 'text/csv' }, async ({ params, tenant, now }) => {
  const csv = await importErrorsCsv(tenant, 'customers', params.id, now);
  return new FileResponse('text/csv; charset=utf-8', `customers-import-${params.id}-errors.csv`, csv);
});
