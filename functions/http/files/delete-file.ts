import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { file } from '../../../shared/views/files';
import { deleteFile } from '../../../shared/files/files';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, response: z.strictObject({ file, deleted: z.literal(true) }) },
  async ({ params, tenant, now, unit }) => ({ file: await deleteFile(unit, tenant, params.id, now), deleted: true as const }),
);
