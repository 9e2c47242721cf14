import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { exportJob } from '../../../shared/views/exports';
import { requestExport } from '../../../shared/exports/exports';
import { CreateLeadsExport } from './schemas/leads';

export const handler = route(
  { scope: 'crm:read', body: CreateLeadsExport, status: 202, response: z.strictObject({ export: exportJob }) },
  async ({ body, tenant, now, unit }) => ({ export: await requestExport(unit, tenant, 'leads', body.filter ?? {}, now) }),
);
