import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { activity } from '../../../shared/views/crm';
import { requireActivity } from '../../../shared/crm/activities';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:read', params: IdParams, response: z.strictObject({ activity }) },
  async ({ params, tenant }) => ({
    activity: await requireActivity(tenant, params.id),
  }),
);
