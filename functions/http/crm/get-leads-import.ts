import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { importJob } from '../../../shared/views/imports';
import { readImport } from '../../../shared/imports/read';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:read', params: IdParams, response: z.strictObject({ import: importJob }) },
  async ({ params, tenant, now }) => ({ import: await readImport(tenant, 'leads', params.id, now) }),
);
