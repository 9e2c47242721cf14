import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { exportWithDownload } from '../../../shared/views/exports';
import { readExport } from '../../../shared/exports/exports';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:read', params: IdParams, response: z.strictObject({ export: exportWithDownload }) },
  async ({ params, tenant, now }) => ({ export: await readExport(tenant, 'leads', params.id, now) }),
);
