import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { importJob } from '../../../shared/views/imports';
import { readImport } from '../../../shared/imports/read';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'contacts:read', params: IdParams, response: z.strictObject({ import: importJob }) },
  async ({ params, tenant, now }) => ({ import: await readImport(tenant, 'customers', params.id, now) }),
);
