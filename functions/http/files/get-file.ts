import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { fileWithDownload } from '../../../shared/views/files';
import { readFile } from '../../../shared/files/files';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:read', params: IdParams, response: z.strictObject({ file: fileWithDownload }) },
  async ({ params, tenant, now }) => ({ file: await readFile(tenant, params.id, now) }),
);
