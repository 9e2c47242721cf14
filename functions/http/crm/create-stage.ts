import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { pipeline } from '../../../shared/views/crm';
import { createStage } from '../../../shared/crm/pipelines';
import { IdParams } from '../../../shared/http/params';
import { CreateStage } from './schemas/pipelines';

export const handler = route(
  { scope: 'crm:create', params: IdParams, body: CreateStage, status: 201, response: z.strictObject({ pipeline }) },
  async ({ params, body, tenant, now, unit }) => ({
    pipeline: await createStage(unit, tenant, params.id, body, now),
  }),
);
