import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipeline } from '../../../shared/views/crm';
import { createPipeline } from '../../../shared/crm/pipelines';
import { CreatePipeline } from './schemas/pipelines';

export const handler = route(
  { scope: 'crm:create', body: CreatePipeline, status: 201, response: z.strictObject({ pipeline }) },
  async ({ body, tenant, now, unit }) => ({
    pipeline: await createPipeline(unit, tenant, body, now),
  }),
);
