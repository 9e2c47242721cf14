import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { summary } from '../../../shared/views/crm';
import { pipelineSummary } from '../../../shared/crm/pipelines';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:read', params: IdParams, response: z.strictObject({ summary }) },
  async ({ params, tenant }) => ({
    summary: await pipelineSummary(tenant, params.id),
  }),
);
