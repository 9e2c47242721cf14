import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipeline } from '../../../shared/views/crm';
import { renamePipeline, requirePipeline } from '../../../shared/data/pipelines';
import { IdParams, UpdatePipeline } from './schemas';

export const handler = route(
  { scope: 'crm:update', params: IdParams, body: UpdatePipeline, response: z.strictObject({ pipeline }) },
  async ({ params, body, tenant, now }) => ({
    pipeline:
      body.name === undefined
        ? (await requirePipeline(tenant, params.id)).pipeline
        : await renamePipeline(tenant, params.id, body.name, now),
  }),
);
