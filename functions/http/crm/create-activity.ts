import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { activity } from '../../../shared/views/crm';
import { addActivity } from '../../../shared/crm/activities';
import { CreateActivity } from './schemas/activities';

export const handler = route(
  { scope: 'crm:create', body: CreateActivity, status: 201, response: z.strictObject({ activity }) },
  async ({ body, tenant, now, unit }) => ({
    activity: await addActivity(unit, tenant, body, now),
  }),
);
