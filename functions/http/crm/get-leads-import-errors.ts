import { route } from '../../../shared/http/route';
import { FileResponse } from '../../../shared/http/file-response';
import { importErrorsCsv } from '../../../shared/imports/read';
import { IdParams } from '../../../shared/http/params';

export const handler = route({ scope: 'crm:read', params: IdParams, produces: 'text/csv' }, async ({ params, tenant, now }) => {
  const csv = await importErrorsCsv(tenant, 'leads', params.id, now);
  return new FileResponse('text/csv; charset=utf-8', `leads-import-${params.id}-errors.csv`, csv);
});
