import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { exportWithDownload } from '../../../shared/views/exports';
import { readExport } from '../../../shared/exports/exports';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'contacts:read', params: IdParams, response: z.strictObject({ export: exportWithDownload }) },
  async ({ params, tenant, now }) => ({ export: await readExport(tenant, 'customers', params.id, now) }),
);
