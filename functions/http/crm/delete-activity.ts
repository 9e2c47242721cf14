import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { activity } from '../../../shared/views/crm';
import { deleteActivity } from '../../../shared/crm/activities';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'crm:delete', params: IdParams, response: z.strictObject({ activity }), errors: ['CONFLICT'] },
  async ({ params, tenant, now }) => ({
    activity: await deleteActivity(tenant, params.id, now),
  }),
);
