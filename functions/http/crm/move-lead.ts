import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { lead } from '../../../shared/views/crm';
import { moveLeadToStage } from '../../../shared/crm/leads';
import { IdParams } from '../../../shared/http/params';
import { MoveLead } from './schemas/move-lead';

export const handler = route(
  { scope: 'crm:update', params: IdParams, body: MoveLead, response: z.strictObject({ lead }) },
  async ({ params, body, tenant, now, unit }) => ({
    lead: await moveLeadToStage(unit, tenant, params.id, body, now),
  }),
);
