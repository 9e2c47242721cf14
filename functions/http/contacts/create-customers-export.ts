import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { exportJob } from '../../../shared/views/exports';
import { requestExport } from '../../../shared/exports/exports';
import { CreateCustomersExport } from './schemas';

export const handler = route(
  { scope: 'contacts:read', body: CreateCustomersExport, status: 202, response: z.strictObject({ export: exportJob }) },
  async ({ body, tenant, now, unit }) => ({ export: await requestExport(unit, tenant, 'customers', body.filter ?? {}, now) }),
);
