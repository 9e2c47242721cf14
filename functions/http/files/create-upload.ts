import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { file, upload } from '../../../shared/views/files';
import { createUpload } from '../../../shared/files/files';
import { CreateFile } from './schemas';

export const handler = route(
  { scope: 'inbox:write', body: CreateFile, status: 201, response: z.strictObject({ file, upload }) },
  async ({ body, tenant, now, unit }) => createUpload(unit, tenant, body, now),
);
